import type { ContextItem } from './ContextItem';
import { keepsAcrossRefresh } from './survival';

/**
 * When items leave the pool besides an explicit removal, as decisions over plain inputs: the
 * Engine asks, then moves what they name to its archive itself (`[one-boundary]`).
 */

/** Items the archive keeps (the newest); the catalog marks every removal (`[bounded-history]`). */
export const ARCHIVE_KEPT = 1000;
/**
 * Task state and findings of one agent the pool keeps live (`[durable-cap]`): past this, the oldest
 * that no current generation holds leave for the archive (the catalog keeps every one).
 */
export const DURABLE_KEPT_PER_AGENT = 128;
/** The pool drops its removed slots once they are at least this many and at least as many as the live ones. */
export const COMPACT_MIN_REMOVED = 4096;

/** True when some current generation of an agent that has not ended holds the item. */
export type HeldByCurrent = (itemId: string) => boolean;

/** The pool's slots in arrival order, as the expiry reads them (a removed slot reads undefined). */
export interface PoolSlots {
  readonly arrivals: number;
  itemAt(slot: number): ContextItem | undefined;
}

/** The agent's items a refresh drops (ephemeral and raw history that is neither pinned nor mandatory), in pool order. */
export function transientOf(items: Iterable<ContextItem>, agentId: string): ContextItem[] {
  const out: ContextItem[] = [];
  for (const item of items) if (item.provenance.agentId === agentId && !keepsAcrossRefresh(item)) out.push(item);
  return out;
}

/** True when the agent still has an item in the pool that a refresh would drop (`[agent-end]`). */
export function ownsTransient(items: Iterable<ContextItem>, agentId: string): boolean {
  for (const item of items) if (item.provenance.agentId === agentId && !keepsAcrossRefresh(item)) return true;
  return false;
}

export interface ExpiryInput {
  agentId: string;
  /** Pool arrivals when the agent's previous generation began; 0 before its second generation. */
  before: number;
  /** Ended agents that still own transient items some current generation held (`[agent-end]`). */
  ended: ReadonlySet<string>;
  slots: PoolSlots;
  held: HeldByCurrent;
}

/**
 * `[ephemeral-expiry]`: at the start of an agent's generation, its ephemeral items and raw history
 * that arrived before its previous generation began (so at least two fresh packs have weighed
 * them), and every transient item of an ended agent (`[agent-end]`), that no current generation
 * holds. Without this an agent that only ever rebuilds keeps every grep and log it ever made, and a
 * long run's pool grows without end. In arrival order.
 */
export function expiredTransient(i: ExpiryInput): ContextItem[] {
  const { agentId, before, ended, slots } = i;
  if (before === 0 && ended.size === 0) return [];
  const expired: ContextItem[] = [];
  const end = ended.size > 0 ? slots.arrivals : before;
  for (let slot = 0; slot < end; slot++) {
    const item = slots.itemAt(slot);
    if (!item || keepsAcrossRefresh(item)) continue;
    const owner = item.provenance.agentId;
    if (!((owner === agentId && slot < before) || ended.has(owner))) continue;
    if (!i.held(item.id)) expired.push(item);
  }
  return expired;
}

/**
 * `[durable-cap]`: at the start of an agent's generation, when it has more than
 * {@link DURABLE_KEPT_PER_AGENT} task-state items and findings that nobody pinned, required or
 * verified, the oldest of them that no current generation holds, until the cap is met or only held
 * ones are left. They are out of every context already; the catalog keeps them. Without this, an
 * agent that works for thousands of turns keeps every finding and failure it ever recorded.
 */
export function durableOverCap(items: Iterable<ContextItem>, agentId: string, held: HeldByCurrent): ContextItem[] {
  const capped: ContextItem[] = [];
  for (const item of items) {
    if (item.provenance.agentId !== agentId || (item.class !== 'task_state' && item.class !== 'finding')) continue;
    if (!item.pinned && !item.mandatory && !item.provenance.verified) capped.push(item);
  }
  let excess = capped.length - DURABLE_KEPT_PER_AGENT;
  const over: ContextItem[] = [];
  for (const item of capped) {
    if (excess <= 0) break;
    if (held(item.id)) continue;
    over.push(item);
    excess--;
  }
  return over;
}

/** `[pool-compaction]`: the pool drops its removed slots once they number at least {@link COMPACT_MIN_REMOVED} and at least the live ones. */
export function compactionDue(removed: number, live: number): boolean {
  return removed >= Math.max(COMPACT_MIN_REMOVED, live);
}

/** How many of the oldest archived items to let go so the archive keeps the newest {@link ARCHIVE_KEPT}. */
export function archiveExcess(archived: number): number {
  return Math.max(0, archived - ARCHIVE_KEPT);
}
