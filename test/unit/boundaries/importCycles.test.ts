import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from '../../boundaries/importCycles.mjs';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp project with the given root-relative files. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'strata-cycles-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('importCycles', () => {
  it('finds a cycle of type-only imports through a root union, and only the files on it', () => {
    const root = fixture({
      'store/actions.ts': "import type { ViewName } from './uiSlice';\nexport type Action = { type: 'view'; view: ViewName };\n",
      'store/uiSlice.ts': "import type { Action } from './actions';\nexport type ViewName = 'a';\nexport const reduceUi = (s: number, a: Action) => s;\n",
      'store/reduce.ts': "import { reduceUi } from './uiSlice';\nimport type { Action } from './actions';\n",
    });
    expect(importCycles(root, 'store')).toEqual([['store/actions.ts', 'store/uiSlice.ts']]);
  });

  it('finds none when the action types live apart from the slices, and reports a file that imports itself', () => {
    const acyclic = fixture({
      'store/actions.ts': "import type { UiAction } from './ui/uiActions';\nexport type Action = UiAction;\n",
      'store/ui/uiActions.ts': "export type ViewName = 'a';\nexport type UiAction = { type: 'view'; view: ViewName };\n",
      'store/ui/uiSlice.ts': "import type { Action } from '../actions';\nimport type { ViewName } from './uiActions';\n",
      'store/reduce.ts': "import { reduceUi } from './ui/uiSlice';\nimport { x } from '../elsewhere/x';\nimport { create } from 'zustand';\n",
      'elsewhere/x.ts': "import '../store/reduce';\n",
    });
    expect(importCycles(acyclic, 'store')).toEqual([]);
    expect(importCycles(fixture({ 'a/self.ts': "export * from './self';\n" }), 'a')).toEqual([['a/self.ts']]);
  });

  it('sees imports by index file, .tsx and dynamic import()', () => {
    const root = fixture({
      'v/A.tsx': "import { b } from './b';\nexport const A = () => <div />;\n",
      'v/b/index.ts': "export const b = () => import('../A');\n",
    });
    expect(importCycles(root, 'v')).toEqual([['v/A.tsx', 'v/b/index.ts']]);
  });

  it('the renderer, its store included, has no import cycle', () => {
    expect(importCycles(repoRoot, 'renderer')).toEqual([]);
  });
});
