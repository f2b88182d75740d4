import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A small JSON file of the shell's own state (recent workspaces, window bounds). Missing reads as
 * undefined; unreadable or corrupt reads as undefined with the reason, so the caller can say so
 * and start from defaults instead of failing to open the window.
 */
export function readJsonFile(path: string): { value: unknown } | { missing: true } | { corrupt: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { corrupt: `cannot read ${path}: ${(err as Error).message}` };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { corrupt: `${path} is not valid JSON (${(err as Error).message})` };
  }
}

/** Write through a temporary file and a rename, so a crash mid-write never leaves half a file. */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
}
