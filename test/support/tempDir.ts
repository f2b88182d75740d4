import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp folder and a function that removes it. */
export function tempDir(prefix = 'strata-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The repository's resources/demo folder. */
export const demoDir = join(import.meta.dirname, '..', '..', 'resources', 'demo');
