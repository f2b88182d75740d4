import { BEYOND_REACH, NOT_CHANGED, PURGED_TEXT } from '../../shared/purgePolicy';

export { PURGED_TEXT, RESIDUAL_EXPOSURE } from '../../shared/purgePolicy';

/** What a purge did, and what it cannot promise (spec "WAL and free pages"). */
export interface PurgeReport {
  deleted: number;
  /** Recalled copies removed from the items table: those of the purged entries and any whose entry no longer exists. */
  recalledCopiesDeleted: number;
  /** The memory partitions this purge covered (the workspace's own). */
  partitions: string[];
  /** Other partitions in the same catalog that hold entries of the purged states, which this purge left alone. */
  otherPartitions: { partition: string; entries: number }[];
  /** Rows outside the memory table where a purged entry's text was replaced by `PURGED_TEXT`, per table (`[erasure-everywhere]`). */
  scrubbed: { table: string; rows: number }[];
  /** Imported traces that still hold a purged entry's text (a purge does not rewrite recordings). */
  tracesHolding: number;
  vacuumed: boolean;
  /** The WAL was checkpointed into the main file and truncated to zero. */
  walTruncated: boolean;
  residual: string;
}

/**
 * A purged text is looked for in other tables only from this length: a shorter one (a word) would
 * match unrelated text a person wrote. The report says when an entry was too short to look for.
 */
export const SCRUB_MIN_CHARS = 16;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What this purge did and could not do, said plainly (the statement never claims more than happened). */
export function residualFor(r: Omit<PurgeReport, 'residual'>, tooShort: number): string {
  const where = r.scrubbed.filter((s) => s.rows > 0).map((s) => `${s.table} (${plural(s.rows, 'row')})`);
  const done =
    `Deleted ${plural(r.deleted, 'entry', 'entries')} from table memory (partition ${r.partitions.join(', ')}) and ` +
    `${plural(r.recalledCopiesDeleted, 'recalled copy', 'recalled copies')} from table items; ` +
    (where.length > 0 ? `replaced their text with "${PURGED_TEXT}" in ${where.join(', ')}.` : 'no other table held their text.');
  const left: string[] = [];
  if (!r.vacuumed) left.push('free pages were not rewritten (VACUUM could not run)');
  if (!r.walTruncated) left.push('the WAL could not be truncated (another reader holds it), so catalog.sqlite-wal may still hold the removed text');
  if (r.tracesHolding > 0) left.push(`${plural(r.tracesHolding, 'imported trace')} (table traces) still hold the text; delete them to remove it`);
  if (tooShort > 0) left.push(`${plural(tooShort, 'entry', 'entries')} had text shorter than ${SCRUB_MIN_CHARS} characters, which was not looked for in other tables`);
  const others = r.otherPartitions.reduce((n, p) => n + p.entries, 0);
  if (others > 0) {
    left.push(
      `${plural(others, 'entry', 'entries')} in ${plural(r.otherPartitions.length, 'other partition')} of this catalog ` +
        `(${r.otherPartitions.map((p) => p.partition).join(', ')}; memory written under a folder path this workspace no longer has) were not purged`,
    );
  }
  const claim =
    left.length === 0
      ? 'The removed text is no longer in catalog.sqlite, catalog.sqlite-wal or catalog.sqlite-shm.'
      : `The removed text may still be in the catalog: ${left.join('; ')}.`;
  return `${done} ${claim} ${NOT_CHANGED} ${BEYOND_REACH}`;
}
