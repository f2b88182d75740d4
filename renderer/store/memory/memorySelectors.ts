import type { MemoryEntryDto } from '../../../engine/contract';
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
