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
  /**
   * How many other rows have the same kind and title but a different text (0 when none): rows that
   * look alike at a glance. `differsAt` is where this row's text first differs from theirs (the
   * shortest common start), so the row can show that part.
   */
  lookalikes: number;
  differsAt: number;
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
    .map((g) => ({ item: g[0] as ItemDto, ids: g.map((i) => i.id), count: g.length, lookalikes: 0, differsAt: 0 }))
    .sort((a, b) => b.item.provenance.at - a.item.provenance.at || a.item.id.localeCompare(b.item.id))
    .map((g, _, all) => {
      const alike = all.filter((o) => o !== g && o.item.kind === g.item.kind && o.item.title === g.item.title);
      if (alike.length === 0) return g;
      return { ...g, lookalikes: alike.length, differsAt: Math.min(...alike.map((o) => commonStart(g.item.content, o.item.content))) };
    });
}

/** The length of the longest common start of two texts. */
function commonStart(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How much of the common start a look-alike's snippet keeps before the part that differs (for context). */
const LEAD = 24;

/** A look-alike row's snippet: from a little before where its text differs, marked with "…" when cut. */
export function differingSnippet(content: string, differsAt: number): string {
  const from = Math.max(0, differsAt - LEAD);
  if (from === 0) return content;
  // Start at the beginning of the word `from` falls in, not mid-word.
  const space = content.lastIndexOf(' ', from);
  const start = space > 0 ? space + 1 : from;
  return start === 0 ? content : `…${content.slice(start)}`;
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
