import type { ItemDto, MemoryEntryDto } from '../../../engine/contract';
import type { RootState } from '../reduce';

export const selectMemoryState = (s: RootState) => s.memory;

/** Counts per state, for the header. */
export function memoryCounts(entries: readonly MemoryEntryDto[]): Record<MemoryEntryDto['state'], number> {
  const counts = { candidate: 0, verified: 0, stale: 0, retired: 0, deleted: 0 };
  for (const e of entries) counts[e.state]++;
  return counts;
}

/** How fresh an entry's observation is: stale when its evidence changed, else its age. */
export function freshness(entry: MemoryEntryDto, now: number): { label: string; level: 'fresh' | 'aging' | 'stale' } {
  if (entry.state === 'stale') return { label: 'stale: its evidence changed since it was observed', level: 'stale' };
  const days = Math.max(0, Math.floor((now - entry.provenance.observedAt) / 86_400_000));
  const label = days === 0 ? 'observed today' : days === 1 ? 'observed 1 day ago' : `observed ${days} days ago`;
  return { label, level: days > 30 ? 'aging' : 'fresh' };
}

/** Candidates with the same kind, title and content, shown as one row: the newest item is the one to promote. */
export interface CandidateGroup {
  item: ItemDto;
  /** Every item of the group, newest first. */
  ids: string[];
  count: number;
}

/** Group identical candidates (same kind, title and content hash), newest first within and across groups. */
export function groupCandidates(items: readonly ItemDto[]): CandidateGroup[] {
  const groups = new Map<string, ItemDto[]>();
  for (const item of items) {
    const key = `${item.kind}\u0000${item.title}\u0000${item.contentHash}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()]
    .map((g) => [...g].sort((a, b) => b.provenance.at - a.provenance.at || a.id.localeCompare(b.id)))
    .map((g) => ({ item: g[0] as ItemDto, ids: g.map((i) => i.id), count: g.length }))
    .sort((a, b) => b.item.provenance.at - a.item.provenance.at || a.item.id.localeCompare(b.item.id));
}

/** How long ago `at` was, in the largest whole unit ("just now", "5 min ago", "3 h ago", "2 days ago"). */
export function ageOf(at: number, now: number): string {
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  return d === 1 ? '1 day ago' : `${d} days ago`;
}
