import type { LogEntry } from '../../../engine/contract';
import type { Action } from '../actions';

export interface LogState {
  /** Oldest first, at most `logCapacity`, no duplicate `seq`. */
  entries: LogEntry[];
}

export const logCapacity = 500;
export const logInitialState: LogState = { entries: [] };

/** The workspace log: live `log` events plus the backlog an agent detail brings, merged by `seq`. */
export function reduceLog(state: LogState, action: Action): LogState {
  if (action.type === 'event' && action.event.name === 'log') return merge(state, [action.event.payload.entry]);
  if (action.type === 'agent.detail') return merge(state, action.detail.recentLog);
  return state;
}

function merge(state: LogState, incoming: LogEntry[]): LogState {
  // The common case, a live line newer than all held (entries are sorted by seq): no search, no sort.
  const only = incoming.length === 1 ? (incoming[0] as LogEntry) : undefined;
  const newest = state.entries.at(-1);
  if (only && (!newest || only.seq > newest.seq)) {
    const entries = [...state.entries, only];
    return { entries: entries.length > logCapacity ? entries.slice(entries.length - logCapacity) : entries };
  }
  const known = new Set(state.entries.map((e) => e.seq));
  const fresh = incoming.filter((e) => !known.has(e.seq));
  if (fresh.length === 0) return state;
  const entries = [...state.entries, ...fresh].sort((a, b) => a.seq - b.seq);
  return { entries: entries.length > logCapacity ? entries.slice(entries.length - logCapacity) : entries };
}
