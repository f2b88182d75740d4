import { limitNote } from '../agents/budgets';
import type { EventEntry } from './eventsSlice';

/** The reason of a `Context refreshed · Generation 1 → 2 · Reason: …` line. */
const reasonOf = (text: string): string => /· Reason: (.*)$/.exec(text)?.[1] ?? text;

/** A turn line that had to be repeated after a refresh (`… · 1 retry (1 refresh)`). */
const retriedAfterRefresh = (text: string) => /^Turn \d+ · gen .*\b\d+ retr(?:y|ies) \((?:\d+) refresh/.test(text);

/**
 * The line under an event that says what its own text does not: for an error-kind turn line that
 * was repeated after a refresh, the error that caused it (the agent's newest refresh before it);
 * for a line quoting a provider's context-limit refusal, which figure is the provider window and
 * which the agent's engine budget. Only for `shown` entries; keyed by entry id.
 */
export function eventNotes(entries: readonly EventEntry[], shown: readonly EventEntry[], engineBudgets: Readonly<Record<string, number>>): Record<string, string> {
  const want = new Set(shown.filter((e) => e.kind === 'error' || e.kind === 'refresh').map((e) => e.id));
  const notes: Record<string, string> = {};
  if (want.size === 0) return notes;
  const lastRefresh = new Map<string, string>();
  for (const e of entries) {
    const budget = e.agentId ? engineBudgets[e.agentId] : undefined;
    if (e.kind === 'refresh' && e.agentId) lastRefresh.set(e.agentId, reasonOf(e.text));
    if (!want.has(e.id)) continue;
    if (e.kind === 'error' && e.agentId && retriedAfterRefresh(e.text)) {
      const cause = lastRefresh.get(e.agentId);
      if (cause) {
        const limit = limitNote(cause, budget);
        notes[e.id] = `Error: ${cause}${limit ? ` · ${limit}` : ''}`;
        continue;
      }
    }
    const limit = limitNote(e.text, budget);
    if (limit) notes[e.id] = limit;
  }
  return notes;
}
