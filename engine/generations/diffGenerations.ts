import { generationTokens } from './Generation';
import type { CompressedEntry, Generation, IncludedEntry } from './Generation';

/** The change from one generation to another, as a plain value the UI and charts consume. */
export interface GenerationDiff {
  agentId: string;
  from: number;
  to: number;
  /** In `to`, not in `from`. */
  added: IncludedEntry[];
  /** In `from`, not in `to`, with the reason `to` recorded (or why it is gone from the pool). */
  dropped: { entry: IncludedEntry; reason: string }[];
  /** Compressed or clipped in `to`. */
  compressed: CompressedEntry[];
  /** In both. */
  kept: IncludedEntry[];
  tokenDelta: number;
  /** Why `to` began. */
  reason: string;
}

/**
 * Compare two generations of one agent by item id (`[diff-value]`). Pure: the same two snapshots
 * always give the same diff; `diff(a, a)` has nothing added, dropped or compressed.
 */
export function diffGenerations(a: Generation, b: Generation): GenerationDiff {
  const inA = new Map(a.included.map((e) => [e.item.id, e]));
  const inB = new Map(b.included.map((e) => [e.item.id, e]));
  const reasons = new Map(b.dropped.map((d) => [d.item.id, d.reason]));
  const sameGeneration = a.number === b.number;
  return {
    agentId: b.agentId,
    from: a.number,
    to: b.number,
    added: b.included.filter((e) => !inA.has(e.item.id)),
    dropped: a.included
      .filter((e) => !inB.has(e.item.id))
      .map((entry) => ({ entry, reason: reasons.get(entry.item.id) ?? 'no longer in the pool (removed or dropped at refresh)' })),
    compressed: sameGeneration ? [] : b.compressed,
    kept: b.included.filter((e) => inA.has(e.item.id)),
    tokenDelta: generationTokens(b) - generationTokens(a),
    reason: b.boundary.reason,
  };
}
