/** Why the ContextManager refused an operation. */
export type ContextErrorCode =
  /** The lease belongs to a turn that a newer `beginTurn` superseded. */
  | 'stale_lease'
  /** The lease was cancelled. */
  | 'cancelled_lease'
  /** The lease was not issued by this manager (forged, or from before a restore). */
  | 'foreign_lease'
  /** The group is not one user message, or one assistant message with exactly its results. */
  | 'malformed_group'
  /** An argument is out of range or of the wrong kind. */
  | 'invalid_argument'
  /** A snapshot handed to `restore` breaks an invariant; nothing was restored. */
  | 'invalid_snapshot';

/**
 * A refused ContextManager operation. Invariant: when it is thrown, nothing changed: the state,
 * the pending transients and the audit trail are exactly as before the call, so a caller can fix
 * the input and retry. `code` is for programs, `message` (which starts with the rule id it
 * enforces, e.g. `[turn-lease]`) for people, `problems` lists every defect found, not just the first.
 */
export class ContextError extends Error {
  constructor(
    readonly code: ContextErrorCode,
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ContextError';
  }
}
