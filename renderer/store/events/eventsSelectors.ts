import type { RootState } from '../reduce';
import type { EventEntry, EventKind } from './eventsSlice';

export interface EventFilter {
  /** Kinds shown; empty shows every kind. */
  kinds: EventKind[];
  /** Only this agent's entries when set. */
  agentId: string | null;
  /** Case-insensitive substring of the text or the agent id. */
  text: string;
  /** Kinds left out whatever `kinds` says (the ui slice's hidden kinds: compactions in one click). */
  hidden?: EventKind[];
}

export const selectEventEntries = (s: RootState): EventEntry[] => s.events.entries;

/** Entries matching `filter`, newest first, at most `limit`. */
export function filterEvents(entries: EventEntry[], filter: EventFilter, limit: number): EventEntry[] {
  const text = filter.text.trim().toLowerCase();
  const kinds = filter.kinds.length > 0 ? new Set(filter.kinds) : null;
  const hidden = filter.hidden && filter.hidden.length > 0 ? new Set(filter.hidden) : null;
  const out: EventEntry[] = [];
  for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
    const e = entries[i] as EventEntry;
    if (kinds && !kinds.has(e.kind)) continue;
    if (hidden?.has(e.kind)) continue;
    if (filter.agentId !== null && e.agentId !== filter.agentId) continue;
    if (text && !e.text.toLowerCase().includes(text) && !(e.agentId ?? '').toLowerCase().includes(text)) continue;
    out.push(e);
  }
  return out;
}

/** How many entries of each kind the log holds (for the filter's counts). */
export function countByKind(entries: EventEntry[]): Partial<Record<EventKind, number>> {
  const counts: Partial<Record<EventKind, number>> = {};
  for (const e of entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return counts;
}

/** Agent ids that appear in the log, sorted. */
export function eventAgents(entries: EventEntry[]): string[] {
  const ids = new Set<string>();
  for (const e of entries) if (e.agentId) ids.add(e.agentId);
  return [...ids].sort();
}
