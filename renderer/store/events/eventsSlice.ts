import type { LogEntry, StrataEvent } from '../../../engine/contract';
import type { Action } from '../actions';
import type { EventKind } from './eventKinds';

export { EVENT_KINDS, type EventKind } from './eventKinds';

/** Host events the event log shows besides `log` lines (the controller subscribes to them). */
export const EVENT_LOG_EVENTS = ['memory.changed', 'run.changed', 'conversation.changed'] as const;

export interface EventEntry {
  /** Unique and stable: `log:<seq>` for log lines, `<event>:<n>` for typed events. */
  id: string;
  kind: EventKind;
  level: LogEntry['level'];
  agentId: string | null;
  /** Milliseconds since the epoch. */
  at: number;
  text: string;
}

export interface EventsState {
  /** Oldest first, at most `eventsCapacity`. */
  entries: EventEntry[];
  /** Next number for typed events (they carry no id of their own). */
  next: number;
  /** Highest log `seq` held: a live line above it is new without a search. */
  maxSeq: number;
}

export const eventsCapacity = 1000;
export const eventsInitialState: EventsState = { entries: [], next: 1, maxSeq: 0 };

/** Classify a workspace log line by its level and wording (the host's messages, see HostRun and Host). */
export function classifyLog(e: Pick<LogEntry, 'level' | 'message'>): EventKind {
  const m = e.message;
  if (/hook/i.test(m) && /\b(den(y|ied|ial)|block(ed)?|refus(ed|al))\b/i.test(m)) return 'hook';
  if (/^Context refreshed|\brefresh(ed)?\b.*generation|^Generation \d+/i.test(m)) return 'refresh';
  if (/^Conversation .*(compact|summar)|compaction/i.test(m)) return 'compaction';
  if (e.level === 'error' || /provider.*(error|fail)|\b(rate.?limit|overloaded|retry)/i.test(m)) return 'error';
  if (/memory/i.test(m)) return 'memory';
  if (/^Turn \d+ · gen/.test(m)) return 'turn';
  if (/\brun\b|^Spawned |\bdone\b/i.test(m)) return 'run';
  return 'log';
}

const fromLog = (e: LogEntry): EventEntry => ({ id: `log:${e.seq}`, kind: classifyLog(e), level: e.level, agentId: e.agentId, at: Date.parse(e.at) || 0, text: e.message });

/** Typed events worth a line of their own (refreshes and compactions arrive as log lines too). */
function fromEvent(e: StrataEvent, now: number): Omit<EventEntry, 'id'>[] {
  switch (e.name) {
    case 'memory.changed':
      return [{ kind: 'memory', level: 'info', agentId: null, at: now, text: e.payload.change === 'purged' ? 'Project memory purged' : `Memory ${e.payload.id ?? ''} ${e.payload.change}${e.payload.entry ? `: ${e.payload.entry.title}` : ''}` }];
    case 'run.changed': {
      const r = e.payload.run;
      return [{ kind: 'run', level: r.status === 'stopped' && r.reason ? 'warn' : 'info', agentId: null, at: now, text: `Run ${r.runId} ${r.status}${r.reason ? ` · ${r.reason}` : ''} · ${r.turns} turns, ${r.agents} agents` }];
    }
    case 'conversation.changed':
      return e.payload.change === 'reset' ? [{ kind: 'run', level: 'info', agentId: e.payload.agentId, at: now, text: `Conversation of ${e.payload.agentId} started over` }] : [];
    default:
      return [];
  }
}

/**
 * The event log: workspace log lines (live and the backlog an agent detail brings, merged by `seq`)
 * and typed events (memory changes, runs, conversation resets), bounded to `eventsCapacity`.
 */
export function reduceEvents(state: EventsState, action: Action, now: () => number = Date.now): EventsState {
  if (action.type === 'agent.detail') return addLog(state, action.detail.recentLog);
  if (action.type !== 'event') return state;
  if (action.event.name === 'log') return addLog(state, [action.event.payload.entry]);
  const typed = fromEvent(action.event, now());
  if (typed.length === 0) return state;
  let next = state.next;
  const fresh = typed.map((t) => ({ ...t, id: `${action.event.name}:${next++}` }));
  return { ...state, entries: bounded([...state.entries, ...fresh]), next };
}

function addLog(state: EventsState, incoming: LogEntry[]): EventsState {
  if (incoming.length === 0) return state;
  const first = incoming[0] as LogEntry;
  // The common case: one live line, newer than all held.
  if (incoming.length === 1 && first.seq > state.maxSeq) return { ...state, entries: bounded([...state.entries, fromLog(first)]), maxSeq: first.seq };
  const known = new Set(state.entries.map((e) => e.id));
  const fresh = [...incoming].sort((a, b) => a.seq - b.seq).filter((e) => !known.has(`log:${e.seq}`));
  if (fresh.length === 0) return state;
  // Arrival order, except a backlog older than every line held, which goes first.
  let firstSeq = Infinity;
  for (const e of state.entries) if (e.id.startsWith('log:')) firstSeq = Math.min(firstSeq, Number(e.id.slice(4)));
  const older = fresh.filter((e) => e.seq < firstSeq).map(fromLog);
  const newer = fresh.filter((e) => e.seq >= firstSeq).map(fromLog);
  return { ...state, entries: bounded([...older, ...state.entries, ...newer]), maxSeq: Math.max(state.maxSeq, (fresh.at(-1) as LogEntry).seq) };
}

const bounded = (entries: EventEntry[]) => (entries.length > eventsCapacity ? entries.slice(entries.length - eventsCapacity) : entries);
