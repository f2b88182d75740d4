import { isAbsolute, resolve } from 'node:path';

/** How many workspaces File › Open Recent lists. */
export const RECENT_KEPT = 10;

/**
 * The recent list read back from its file: absolute paths only, each once, newest first, at most
 * RECENT_KEPT. Anything else in the file (a hand edit, an old format) is dropped, not fatal.
 */
export function parseRecent(value: unknown): string[] {
  const list = Array.isArray(value) ? value : (value as { workspaces?: unknown } | null)?.workspaces;
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const entry of list) {
    if (typeof entry !== 'string' || entry.length === 0 || entry.length > 4096 || entry.includes('\0') || !isAbsolute(entry)) continue;
    const path = resolve(entry);
    if (!out.includes(path)) out.push(path);
    if (out.length === RECENT_KEPT) break;
  }
  return out;
}

/** `path` (absolute, normalized, no trailing separator) moved to the front of the list (added when new); the oldest fall off past RECENT_KEPT. */
export function addRecent(list: readonly string[], path: string): string[] {
  const p = resolve(path);
  return [p, ...list.filter((x) => x !== p)].slice(0, RECENT_KEPT);
}

/** The file form: versioned, so a later format can read this one. */
export function serializeRecent(list: readonly string[]): { version: 1; workspaces: string[] } {
  return { version: 1, workspaces: [...list] };
}
