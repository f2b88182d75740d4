import type { LogEntry } from '../../../engine/contract';
import { classifyLog } from '../events/eventsSlice';
import type { RootState } from '../reduce';

/** The newest `limit` log lines, of one agent when `agentId` is given. */
export function selectLog(s: RootState, limit: number, agentId?: string): LogEntry[] {
  const all = agentId ? s.log.entries.filter((e) => e.agentId === agentId) : s.log.entries;
  return all.slice(Math.max(0, all.length - limit));
}

/** Where a log line leads: its agent, and the generation it speaks of when it names one. */
export interface LogTarget {
  agentId: string;
  generation: number | null;
}

/**
 * The agent and generation a line is about: `Turn 4 · gen 2 · …` is generation 2, `Context
 * refreshed · Generation 1 → 2 · …` the new generation 2; null for a line of no agent.
 */
export function logTarget(e: Pick<LogEntry, 'agentId' | 'message'>): LogTarget | null {
  if (!e.agentId) return null;
  const m = /\bgen(?:eration)?\s+(\d+)(?:\s*→\s*(\d+))?/i.exec(e.message);
  const n = m ? Number(m[2] ?? m[1]) : NaN;
  return { agentId: e.agentId, generation: Number.isInteger(n) && n > 0 ? n : null };
}

/** The newest `limit` lines whose kind is not hidden (the log strip; compactions hidden in one click). */
export function selectStripLog(s: RootState, limit: number): LogEntry[] {
  const hidden = s.ui.hiddenKinds;
  if (hidden.length === 0) return selectLog(s, limit);
  const out: LogEntry[] = [];
  for (let i = s.log.entries.length - 1; i >= 0 && out.length < limit; i--) {
    const e = s.log.entries[i] as LogEntry;
    if (!hidden.includes(classifyLog(e))) out.push(e);
  }
  return out.reverse();
}

/** The log strip's summary for screen readers: only the errors and warnings held, so it speaks when one arrives, not on every line. */
export function selectLogSummary(s: RootState): string {
  let errors = 0;
  let warnings = 0;
  for (const e of s.log.entries) {
    if (e.level === 'error') errors++;
    else if (e.level === 'warn') warnings++;
  }
  if (errors + warnings === 0) return 'No errors or warnings';
  const part = (n: number, one: string) => (n === 0 ? '' : `${n} ${one}${n === 1 ? '' : 's'}`);
  return [part(errors, 'error'), part(warnings, 'warning')].filter(Boolean).join(' · ');
}
