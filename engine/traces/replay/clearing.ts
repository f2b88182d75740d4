/**
 * A recorded prompt below this share of the same agent's previous one, with no compaction
 * recorded between them, means the client cleared context it did not record (Claude Code clears
 * old tool results; a converted session may start a new conversation): `as_recorded` clears its
 * oldest tool results to the same proportion and counts them (`StepMetrics.clearedResults`), and
 * the token scale is not fitted across such a drop.
 */
export const CLEARING_DROP = 0.85;
