import type { Durability, ItemKind } from '../items/ContextItem';
import type { IncludedEntry } from './Generation';

const kindRank: Partial<Record<ItemKind, number>> = { objective: 0, task: 1, acceptance: 2, constraint: 3, architecture: 4 };
const durabilityRank: Record<Durability, number> = { project: 0, task: 1, phase: 2, transient: 3 };
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** L1 by a stable key (`[L1-stable]`): kind (objective, task, acceptance, constraints, architecture, pinned), then id. */
export function l1Order(a: IncludedEntry, b: IncludedEntry): number {
  return (kindRank[a.item.kind] ?? 5) - (kindRank[b.item.kind] ?? 5) || cmp(a.item.id, b.item.id);
}

/**
 * L2 in deterministic durability/content-hash order (`[L2-order]`), most durable first so the
 * longest-lived material sits earliest in the cached prefix; chronological strategies keep time order.
 */
export function l2Order(order: 'score' | 'recent'): (a: IncludedEntry, b: IncludedEntry) => number {
  if (order === 'recent') return (a, b) => a.item.provenance.at - b.item.provenance.at || cmp(a.item.id, b.item.id);
  return (a, b) =>
    durabilityRank[a.item.provenance.durability] - durabilityRank[b.item.provenance.durability] ||
    cmp(a.item.contentHash, b.item.contentHash) ||
    cmp(a.item.id, b.item.id);
}
