import type { GatewayCallDto, GatewaySessionDetailDto, GatewaySessionDto, GatewayStatusDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { LoadStatus } from '../loadStatus';

/** The last command's answer in words, shown in the view until the next one or a dismissal. */
interface GatewayNotice {
  status: 'ok' | 'error';
  message: string;
}

/** A managed call's request as the client sent it and as it went upstream (`rewritten` null when the original went). */
interface GatewayRequestView {
  callId: string;
  original: string | null;
  rewritten: string | null;
  error: string | null;
}

export interface GatewayState {
  /** The host's gateway: running or not, its address, upstreams, default mode, the client lines and the start problem. */
  status: GatewayStatusDto | null;
  load: LoadStatus;
  loadError: string | null;
  /** A start or stop is in flight. */
  toggling: boolean;
  /** The sessions the gateway saw, most recently active first. */
  sessions: GatewaySessionDto[];
  selectedId: string | null;
  /** The selected session's threads and calls (`getGatewaySession`), merged with its `gateway.call` events. */
  detail: GatewaySessionDetailDto | null;
  detailError: string | null;
  /** The thread whose calls and generations show. */
  threadId: string | null;
  /** Changes in flight: a session id (mode switch) or `thread\u0000item` (pin, remove…). */
  busy: Record<string, true>;
  notice: GatewayNotice | null;
  request: GatewayRequestView | null;
}

export const gatewayInitialState: GatewayState = { status: null, load: 'idle', loadError: null, toggling: false, sessions: [], selectedId: null, detail: null, detailError: null, threadId: null, busy: {}, notice: null, request: null };

/** Calls per thread the view keeps, as many as the host keeps (the newest). */
const CALLS_KEPT = 100;

const without = (record: Record<string, true>, key: string): Record<string, true> => {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
};

const newestFirst = (sessions: GatewaySessionDto[]): GatewaySessionDto[] => [...sessions].sort((a, b) => b.updatedAt - a.updatedAt);

/** Sessions with `incoming` put in, each id kept at its most recent figures. */
function upsertSessions(list: GatewaySessionDto[], incoming: readonly GatewaySessionDto[]): GatewaySessionDto[] {
  const byId = new Map(list.map((s) => [s.id, s]));
  for (const s of incoming) {
    const had = byId.get(s.id);
    if (!had || had.updatedAt <= s.updatedAt) byId.set(s.id, s);
  }
  return newestFirst([...byId.values()]);
}

/** The detail with its session's newer figures, when `sessions` carries them. */
function withSession(detail: GatewaySessionDetailDto | null, sessions: readonly GatewaySessionDto[]): GatewaySessionDetailDto | null {
  if (!detail) return detail;
  const s = sessions.find((x) => x.id === detail.session.id);
  return s && s !== detail.session && s.updatedAt >= detail.session.updatedAt ? { ...detail, session: s } : detail;
}

/** `gateway.call` into the selected session's threads: a call replaces its older state or joins its thread's newest. */
function mergeCalls(detail: GatewaySessionDetailDto | null, calls: readonly GatewayCallDto[]): GatewaySessionDetailDto | null {
  if (!detail) return detail;
  const mine = calls.filter((c) => c.sessionId === detail.session.id);
  if (mine.length === 0) return detail;
  let changed = false;
  const threads = detail.threads.map((t) => {
    const ofThread = mine.filter((c) => c.threadId === t.id);
    if (ofThread.length === 0) return t;
    changed = true;
    const list = [...t.calls];
    for (const call of ofThread) {
      const i = list.findIndex((c) => c.id === call.id);
      if (i === -1) list.push(call);
      else list[i] = call;
    }
    return { ...t, calls: list.length > CALLS_KEPT ? list.slice(list.length - CALLS_KEPT) : list };
  });
  return changed ? { ...detail, threads } : detail;
}

/** The thread to show: the one chosen while the detail has it, else the session's main thread. */
function threadOf(detail: GatewaySessionDetailDto, chosen: string | null): string | null {
  if (chosen && detail.threads.some((t) => t.id === chosen)) return chosen;
  return (detail.threads.find((t) => t.parentId === null) ?? detail.threads[0])?.id ?? null;
}

/**
 * The gateway view's state. Sessions carry `updatedAt`, so a listing never rolls a session back
 * past an event; the selected session's calls merge live from `gateway.call` and its figures from
 * `gateway.session`, and its `getGatewaySession` answer replaces both. A failed command changes
 * nothing but the notice.
 */
export function reduceGateway(state: GatewayState, action: Action): GatewayState {
  switch (action.type) {
    case 'gateway.loading':
      return { ...state, load: 'loading', loadError: null };
    case 'gateway.loaded': {
      const sessions = listed(state, action.sessions);
      return { ...state, ...sessions, status: action.status, load: 'ready', loadError: null };
    }
    case 'gateway.loadFailed':
      return { ...state, load: 'failed', loadError: action.message };
    case 'gateway.toggling':
      return { ...state, toggling: true, notice: null };
    case 'gateway.toggled':
      return { ...state, toggling: false, status: action.status, notice: { status: 'ok', message: action.message } };
    case 'gateway.toggleFailed':
      return { ...state, toggling: false, notice: { status: 'error', message: action.message } };
    case 'gateway.sessionsListed':
      return { ...state, ...listed(state, action.sessions) };
    case 'gateway.select':
      if (state.selectedId === action.sessionId) return state;
      return { ...state, selectedId: action.sessionId, detail: null, detailError: null, threadId: null, request: null };
    case 'gateway.detail': {
      if (action.detail.session.id !== state.selectedId) return state;
      const detail = withSession(action.detail, state.sessions);
      return { ...state, detail, detailError: null, threadId: detail ? threadOf(detail, state.threadId) : null, sessions: upsertSessions(state.sessions, [action.detail.session]) };
    }
    case 'gateway.detailFailed':
      return action.sessionId === state.selectedId ? { ...state, detailError: action.message } : state;
    case 'gateway.selectThread':
      return state.threadId === action.threadId ? state : { ...state, threadId: action.threadId, request: null };
    case 'gateway.busy':
      return { ...state, busy: { ...state.busy, [action.key]: true }, notice: null };
    case 'gateway.modeSet': {
      const sessions = upsertSessions(state.sessions, [action.session]);
      const detail = state.detail?.session.id === action.session.id ? { ...state.detail, session: { ...state.detail.session, mode: action.session.mode } } : state.detail;
      return { ...state, sessions, detail, busy: without(state.busy, action.session.id), notice: { status: 'ok', message: action.message } };
    }
    case 'gateway.controlled': {
      const detail = state.detail && { ...state.detail, threads: state.detail.threads.map((t) => (t.id === action.threadId ? { ...t, pins: action.pins, removals: action.removals } : t)) };
      return { ...state, detail, busy: without(state.busy, action.key), notice: { status: 'ok', message: action.message } };
    }
    case 'gateway.changeFailed':
      return { ...state, busy: without(state.busy, action.key), notice: { status: 'error', message: action.message } };
    case 'gateway.dismissNotice':
      return state.notice ? { ...state, notice: null } : state;
    case 'gateway.requestOpen':
      return { ...state, request: { callId: action.callId, original: null, rewritten: null, error: null } };
    case 'gateway.request':
      return state.request?.callId === action.callId ? { ...state, request: { callId: action.callId, original: action.original, rewritten: action.rewritten, error: null } } : state;
    case 'gateway.requestFailed':
      return state.request?.callId === action.callId ? { ...state, request: { ...state.request, error: action.message } } : state;
    case 'gateway.requestClose':
      return state.request ? { ...state, request: null } : state;
    case 'event': {
      const e = action.event;
      if (e.name === 'gateway.status') return { ...state, status: e.payload.status };
      if (e.name === 'gateway.session') {
        const sessions = upsertSessions(state.sessions, e.payload.sessions);
        return { ...state, sessions, detail: withSession(state.detail, sessions) };
      }
      if (e.name === 'gateway.call') {
        const detail = mergeCalls(state.detail, e.payload.calls);
        return detail === state.detail ? state : { ...state, detail };
      }
      return state;
    }
    default:
      return state;
  }
}

/** A listing: the host's sessions (each at its newest figures); a selected session it no longer has is let go. */
function listed(state: GatewayState, sessions: readonly GatewaySessionDto[]): Pick<GatewayState, 'sessions' | 'selectedId' | 'detail' | 'detailError' | 'threadId' | 'request'> {
  const known = new Map(state.sessions.map((s) => [s.id, s]));
  const next = newestFirst(sessions.map((s) => {
    const had = known.get(s.id);
    return had && had.updatedAt > s.updatedAt ? had : s;
  }));
  if (state.selectedId === null || next.some((s) => s.id === state.selectedId)) return { sessions: next, selectedId: state.selectedId, detail: withSession(state.detail, next), detailError: state.detailError, threadId: state.threadId, request: state.request };
  return { sessions: next, selectedId: null, detail: null, detailError: null, threadId: null, request: null };
}
