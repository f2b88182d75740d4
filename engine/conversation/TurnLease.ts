/**
 * The right to append to a conversation, held by one turn. Only the newest lease that was not
 * cancelled may append: `beginTurn` on the manager makes every older lease stale, so a slow or
 * abandoned turn (a cancelled request still streaming, a retry racing the original) cannot write
 * after a newer turn owns the conversation. Leases are compared by identity, never by value, so a
 * lease cannot be forged from its fields or carried across a restore.
 */
export interface TurnLease {
  /** Monotonically increasing per conversation (it survives snapshot and restore). */
  readonly turn: number;
  /** The turn id every group appended with this lease carries. */
  readonly turnId: string;
}
