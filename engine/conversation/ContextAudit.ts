/** The operations that may remove or replace conversation content. */
export type AuditOperation = 'truncate' | 'compress';

/**
 * What a destructive context operation did, as a plain value. `applied` audits are kept in the
 * manager's trail (the last {@link AUDIT_TRAIL_LIMIT}) and persisted with its snapshot; an
 * `unchanged` (nothing had to go) or `failed` (nothing went: the summarizer failed or the state
 * moved meanwhile) audit is only returned, since nothing changed. Invariant: the ids listed as
 * removed are exactly the ids that left the active context, so the trail explains every loss.
 */
export interface Audit {
  operation: AuditOperation;
  outcome: 'applied' | 'unchanged' | 'failed';
  /** History messages removed, and for a compression the previous summary's id. */
  removedMessageIds: string[];
  removedGroupIds: string[];
  /** Turn ids of the removed groups, each once, oldest first. */
  removedTurnIds: string[];
  /** The new summary's id for a compression; empty otherwise. */
  addedMessageIds: string[];
  /** Why, in words a person can act on. */
  reason: string;
  /**
   * Tokens of system prompt, summary and history when the operation began and when it returned.
   * Without `applied` they differ only when another mutation ran while a compression awaited.
   */
  tokensBefore: number;
  tokensAfter: number;
  /** True when the context still exceeds the requested budget after the operation. */
  overBudget?: boolean;
  /** Clock time of the operation (ms since the epoch). */
  at: number;
}

/** Audits the manager keeps; older ones are dropped first, so the trail never grows unbounded. */
export const AUDIT_TRAIL_LIMIT = 200;
