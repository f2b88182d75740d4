import type { MemoryRecord } from '../MemoryRecord';
import type { WorktreeView } from './WorktreeView';

/** Command evidence older than this is stale for every view. */
export const COMMAND_EVIDENCE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * - `current`: may be recalled in this view;
 * - `stale`: stale for everyone (old command evidence) — the store should mark it;
 * - `mismatch`: a file hash or the ancestry differs in this view — dropped for this view only;
 * - `unknown`: this view cannot confirm it (a path it does not have, ancestry it cannot tell).
 */
export type Freshness = 'current' | 'stale' | 'mismatch' | 'unknown';

/**
 * Is a memory entry still true in the recipient's own view (`[recall-fresh]`)? Only `current`
 * entries are recalled; stale and unknown ones are dropped and never rendered.
 */
export function checkFreshness(record: MemoryRecord, view: WorktreeView, now: number): Freshness {
  const ev = record.evidence;
  if (ev.commands.some((c) => now - c.ranAt > COMMAND_EVIDENCE_MAX_AGE_MS)) return 'stale';
  let unknown = false;
  for (const path of ev.paths) {
    const have = view.hashOf(path);
    if (have === undefined) {
      unknown = true;
      continue;
    }
    const want = ev.hashes[path];
    if (want !== undefined && want !== have) return 'mismatch';
  }
  if (ev.commit !== null) {
    const descends = view.descendsFrom(ev.commit);
    if (descends === false) return 'mismatch';
    if (descends === undefined) unknown = true;
  }
  return unknown ? 'unknown' : 'current';
}
