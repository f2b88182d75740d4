import type { LiveSessionDetailDto, LiveSessionDto, SessionDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { LoadStatus } from '../loadStatus';

/** The last attach or detach answer, shown in the rail until the next one. */
interface SessionsNotice {
  status: 'ok' | 'error';
  message: string;
}

export interface SessionsState {
  /** Session files on the host's machine (`listSessions`), as the host ordered them, and the folders it searched. */
  discovered: { sessions: SessionDto[]; roots: string[]; status: LoadStatus; error: string | null };
  /** Attached sessions by id, and their ids in the order they became known. */
  attached: Record<string, LiveSessionDto>;
  order: string[];
  attachedStatus: LoadStatus;
  attachedError: string | null;
  /**
   * What happened to an id since the last `listAttached` was asked for: `updated` (only while that
   * listing is in flight, so its older answer does not roll the session back) and `detached` (so a
   * stale listing or a queued update does not bring a detached session back). Cleared when the next
   * listing starts: the host's answer to it is newer than anything recorded here.
   */
  since: Record<string, 'updated' | 'detached'>;
  /** The path of the attach in flight, and the sessions with a detach in flight. */
  attaching: string | null;
  detaching: Record<string, true>;
  notice: SessionsNotice | null;
  /** The latest `getSession` answer per attached session, and why the last one failed. */
  details: Record<string, LiveSessionDetailDto>;
  detailErrors: Record<string, string>;
}

export const sessionsInitialState: SessionsState = {
  discovered: { sessions: [], roots: [], status: 'idle', error: null },
  attached: {},
  order: [],
  attachedStatus: 'idle',
  attachedError: null,
  since: {},
  attaching: null,
  detaching: {},
  notice: null,
  details: {},
  detailErrors: {},
};

const without = <V>(record: Record<string, V>, key: string): Record<string, V> => {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
};

function upsert(state: SessionsState, session: LiveSessionDto): SessionsState {
  const id = session.sessionId;
  return {
    ...state,
    attached: { ...state.attached, [id]: session },
    order: id in state.attached ? state.order : [...state.order, id],
  };
}

function remove(state: SessionsState, sessionId: string): SessionsState {
  return {
    ...state,
    attached: without(state.attached, sessionId),
    order: state.order.includes(sessionId) ? state.order.filter((id) => id !== sessionId) : state.order,
    details: without(state.details, sessionId),
    detailErrors: without(state.detailErrors, sessionId),
    detaching: without(state.detaching, sessionId),
    since: { ...state.since, [sessionId]: 'detached' },
  };
}

/** The listing, merged with what happened while it was in flight (see `since`). */
function snapshot(state: SessionsState, sessions: readonly LiveSessionDto[]): SessionsState {
  const attached: Record<string, LiveSessionDto> = {};
  const order: string[] = [];
  for (const s of sessions) {
    const id = s.sessionId;
    if (state.since[id] === 'detached') continue;
    attached[id] = state.since[id] === 'updated' ? (state.attached[id] ?? s) : s;
    order.push(id);
  }
  // Attached or announced while the listing was in flight: newer than the listing.
  for (const id of state.order) {
    if (state.since[id] === 'updated' && !(id in attached) && state.attached[id]) {
      attached[id] = state.attached[id];
      order.push(id);
    }
  }
  const since = Object.fromEntries(Object.entries(state.since).filter(([, v]) => v === 'detached'));
  const keep = <V>(r: Record<string, V>) => Object.fromEntries(Object.entries(r).filter(([id]) => id in attached));
  return { ...state, attached, order, since, attachedStatus: 'ready', attachedError: null, details: keep(state.details), detailErrors: keep(state.detailErrors) };
}

const markUpdated = (state: SessionsState, id: string): SessionsState['since'] =>
  state.attachedStatus === 'loading' ? { ...state.since, [id]: 'updated' } : without(state.since, id);

/**
 * Discovered and attached sessions. Attached sessions carry no revision, so ordering comes from
 * the event stream: `session.updated` replaces, `session.detached` removes (with its detail), and
 * a `listAttached` answer is merged so it never undoes an event that arrived while it was in flight.
 */
export function reduceSessions(state: SessionsState, action: Action): SessionsState {
  switch (action.type) {
    case 'sessions.listing':
      return { ...state, discovered: { ...state.discovered, status: 'loading', error: null } };
    case 'sessions.listed':
      return { ...state, discovered: { sessions: action.sessions, roots: action.roots, status: 'ready', error: null } };
    case 'sessions.listFailed':
      return { ...state, discovered: { ...state.discovered, status: 'failed', error: action.message } };
    case 'sessions.attachedLoading':
      return { ...state, attachedStatus: 'loading', attachedError: null, since: {} };
    case 'sessions.attachedSnapshot':
      return snapshot(state, action.sessions);
    case 'sessions.attachedFailed':
      return { ...state, attachedStatus: 'failed', attachedError: action.message };
    case 'sessions.attaching':
      return { ...state, attaching: action.path, notice: null };
    case 'sessions.attachDone':
      return { ...upsert(state, action.session), attaching: null, since: markUpdated(state, action.session.sessionId), notice: { status: 'ok', message: action.message } };
    case 'sessions.attachFailed':
      return { ...state, attaching: null, notice: { status: 'error', message: action.message } };
    case 'sessions.detaching':
      return { ...state, detaching: { ...state.detaching, [action.sessionId]: true }, notice: null };
    case 'sessions.detachDone':
      return { ...remove(state, action.sessionId), notice: { status: 'ok', message: action.message } };
    case 'sessions.detachFailed':
      return { ...state, detaching: without(state.detaching, action.sessionId), notice: { status: 'error', message: action.message } };
    case 'sessions.detail': {
      const id = action.detail.session.sessionId;
      // A late answer for a session detached meanwhile.
      if (!(id in state.attached)) return state;
      return { ...state, details: { ...state.details, [id]: action.detail }, detailErrors: without(state.detailErrors, id) };
    }
    case 'sessions.detailFailed':
      return action.sessionId in state.attached ? { ...state, detailErrors: { ...state.detailErrors, [action.sessionId]: action.message } } : state;
    case 'sessions.notice':
      return { ...state, notice: { status: action.status, message: action.message } };
    case 'sessions.dismissNotice':
      return state.notice ? { ...state, notice: null } : state;
    case 'event': {
      const e = action.event;
      if (e.name === 'session.updated') {
        const id = e.payload.session.sessionId;
        if (state.since[id] === 'detached') return state;
        return { ...upsert(state, e.payload.session), since: markUpdated(state, id) };
      }
      if (e.name === 'session.detached') {
        const id = e.payload.sessionId;
        return id in state.attached || state.since[id] !== 'detached' ? remove(state, id) : state;
      }
      return state;
    }
    default:
      return state;
  }
}
