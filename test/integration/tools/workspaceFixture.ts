import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../../support/tempDir';

/** A temp folder holding a workspace (`ws/`) and a sibling outside it (`outside/`, with a secret). */
export interface Fixture {
  root: string;
  outside: string;
  remove(): void;
}

/** Write `files` (root-relative, `/`-separated) into a fresh workspace. */
export function makeWorkspace(files: Record<string, string | Uint8Array> = {}): Fixture {
  const t = tempDir('strata-tools-');
  const root = join(t.dir, 'ws');
  const outside = join(t.dir, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET outside the workspace\n');
  for (const [rel, content] of Object.entries(files)) {
    const full = join(root, ...rel.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return { root, outside, remove: t.remove };
}

/** The usual small project: sources, tests, an ignored folder and the engine's store. */
export const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "demo" }\n',
  'src/auth/refresh.ts': 'export function rotateToken(old: string): string {\n  return old + "!";\n}\n\nexport class TokenStore {}\n',
  'src/auth/store.ts': 'export const saveToken = (t: string) => t;\n// TODO: persist\n',
  'src/index.ts': 'import { rotateToken } from "./auth/refresh";\nexport { rotateToken };\n',
  'test/refresh.test.ts': 'import { rotateToken } from "../src/auth/refresh";\n// rotateToken is tested here\n',
  'README.md': '# Demo\nrotateToken rotates.\n',
  'node_modules/lib/index.js': 'export const rotateToken = 1;\n',
  '.git/config': '[core]\nrotateToken = 1\n',
  '.strata/catalog.db': 'rotateToken catalog internals\n',
};
