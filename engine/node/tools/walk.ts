import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isInternalName } from './confine';
import { SKIPPED_DIRS } from './types';

/** One entry met by `walk`. Symbolic links are reported, never followed. */
export interface WalkEntry {
  /** Root-relative, `/`-separated. */
  relative: string;
  absolute: string;
  kind: 'dir' | 'file' | 'symlink' | 'other';
  /** 1 for the children of the start folder. */
  depth: number;
}

/** Code-unit order: the same on every machine and locale. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const kindOf = (e: Dirent): WalkEntry['kind'] => (e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other');

/**
 * Depth-first walk of a folder, each folder's entries in name order (so the order is
 * deterministic), down to `maxDepth`. Skips `.git`, `node_modules` and `.strata` folders at any
 * depth and the engine's store under any spelling; never follows a link; silently skips a folder
 * it cannot read. `relative` of the start folder is `.` for the root.
 */
export async function* walk(absolute: string, relative: string, maxDepth: number, signal?: AbortSignal, depth = 1): AsyncGenerator<WalkEntry> {
  if (signal?.aborted) return;
  let entries: Dirent[];
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => byName(a.name, b.name));
  const prefix = relative === '.' || relative === '' ? '' : `${relative}/`;
  for (const e of entries) {
    if (isInternalName(e.name)) continue;
    const kind = kindOf(e);
    if (kind === 'dir' && SKIPPED_DIRS.has(e.name)) continue;
    const entry: WalkEntry = { relative: `${prefix}${e.name}`, absolute: path.join(absolute, e.name), kind, depth };
    yield entry;
    if (kind === 'dir' && depth < maxDepth) yield* walk(entry.absolute, entry.relative, maxDepth, signal, depth + 1);
  }
}
