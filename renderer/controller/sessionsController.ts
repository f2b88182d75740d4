import type { CommandArgs, StrataApi, StrataEvent } from '../../engine/contract';
import { baseName } from '../components/format';
import type { StrataStore } from '../store/store';

/** The strategies an attached session replays under (the contract's `EngineStrategySchema`). */
export type EngineStrategy = NonNullable<CommandArgs<'attachSession'>['strategy']>;

interface AttachArgs {
  path: string;
  strategy: EngineStrategy;
  budget: number;
}

/** What the attach rail and the "Real vs Strata" panel ask of the host. */
export interface SessionsController {
  /** The session files the host finds (`listSessions`). */
  loadSessions(): Promise<void>;
  /** The attached sessions (`listAttached`). */
  loadAttached(): Promise<void>;
  attachSession(args: AttachArgs): Promise<void>;
  detachSession(sessionId: string): Promise<void>;
  /**
   * Keep the session's series (`getSession`) current while a view shows it: fetched now, then again
   * on its `session.updated`, at most once per {@link DETAIL_INTERVAL_MS}. Returns the release.
   */
  watchSession(sessionId: string): () => void;
}

/**
 * Shortest time between two `getSession` calls of one session. The host announces a session up
 * to 10 times a second and the answer carries every step of both series; twice a second keeps the
 * charts live without re-sending and re-drawing them on every line the session writes.
 */
export const DETAIL_INTERVAL_MS = 500;

/** The time source of the throttle (tests pass a fake one). */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(handle: ReturnType<typeof setTimeout>): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle),
};

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

interface Watch {
  count: number;
  last: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  inFlight: boolean;
  /** An update arrived while a fetch was in flight: fetch once more after it. */
  again: boolean;
}

export function createSessionsController(api: StrataApi, store: StrataStore, clock: Clock = systemClock): SessionsController & { onEvent(event: StrataEvent): void; resync(): void } {
  const { dispatch } = store.getState();
  const watches = new Map<string, Watch>();

  const fetchDetail = async (sessionId: string, w: Watch): Promise<void> => {
    if (w.inFlight) {
      w.again = true;
      return;
    }
    w.inFlight = true;
    w.last = clock.now();
    try {
      dispatch({ type: 'sessions.detail', detail: await api.getSession({ sessionId }) });
    } catch (err) {
      dispatch({ type: 'sessions.detailFailed', sessionId, message: `The series of ${sessionId} could not be loaded: ${message(err)}` });
    } finally {
      w.inFlight = false;
    }
    if (w.again && watches.get(sessionId) === w) {
      w.again = false;
      request(sessionId);
    }
  };

  /** Fetch now if the interval has passed, else once when it has (one trailing call however many updates). */
  const request = (sessionId: string): void => {
    const w = watches.get(sessionId);
    if (!w || w.timer !== undefined) return;
    const wait = w.last + DETAIL_INTERVAL_MS - clock.now();
    if (wait <= 0) {
      void fetchDetail(sessionId, w);
      return;
    }
    w.timer = clock.setTimeout(() => {
      w.timer = undefined;
      if (watches.get(sessionId) === w) void fetchDetail(sessionId, w);
    }, wait);
  };

  const forget = (sessionId: string): void => {
    const w = watches.get(sessionId);
    if (w?.timer !== undefined) clock.clearTimeout(w.timer);
    watches.delete(sessionId);
  };

  const c: SessionsController & { onEvent(event: StrataEvent): void; resync(): void } = {
    async loadSessions() {
      dispatch({ type: 'sessions.listing' });
      try {
        const { sessions, roots } = await api.listSessions({});
        dispatch({ type: 'sessions.listed', sessions, roots });
      } catch (err) {
        dispatch({ type: 'sessions.listFailed', message: `Sessions could not be listed: ${message(err)}` });
      }
    },
    async loadAttached() {
      dispatch({ type: 'sessions.attachedLoading' });
      try {
        const { sessions } = await api.listAttached({});
        dispatch({ type: 'sessions.attachedSnapshot', sessions });
      } catch (err) {
        dispatch({ type: 'sessions.attachedFailed', message: `Attached sessions could not be listed: ${message(err)}` });
      }
    },
    async attachSession({ path, strategy, budget }) {
      dispatch({ type: 'sessions.attaching', path });
      try {
        const { session } = await api.attachSession({ path, strategy, budget });
        // The host answers an identical attach with the session it already follows.
        const again = session.sessionId in store.getState().sessions.attached;
        const what = `${session.sessionId} · ${baseName(session.path)} · Strata ${session.strategy} @ ${session.budget.toLocaleString('en-US')}`;
        dispatch({ type: 'sessions.attachDone', session, message: again ? `Already attached as ${what}.` : `Attached ${what}. Its agents appear in the tree as the host replays it.` });
      } catch (err) {
        dispatch({ type: 'sessions.attachFailed', path, message: `Could not attach ${path}: ${message(err)}` });
      }
    },
    async detachSession(sessionId) {
      dispatch({ type: 'sessions.detaching', sessionId });
      const path = store.getState().sessions.attached[sessionId]?.path;
      try {
        await api.detachSession({ sessionId });
      } catch (err) {
        dispatch({ type: 'sessions.detachFailed', sessionId, message: `Could not detach ${sessionId}: ${message(err)}` });
        return;
      }
      forget(sessionId);
      // The host announces it too; applying it now drops the session's agents without waiting for the event.
      dispatch({ type: 'event', event: { name: 'session.detached', payload: { sessionId } } });
      dispatch({ type: 'sessions.detachDone', sessionId, message: `Detached ${sessionId}${path ? ` (${baseName(path)})` : ''}: the host stopped following it.` });
    },
    watchSession(sessionId) {
      let w = watches.get(sessionId);
      if (!w) {
        w = { count: 0, last: -Infinity, timer: undefined, inFlight: false, again: false };
        watches.set(sessionId, w);
      }
      w.count++;
      request(sessionId);
      const held = w;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.count--;
        if (held.count === 0 && watches.get(sessionId) === held) forget(sessionId);
      };
    },
    onEvent(event) {
      if (event.name === 'session.updated') request(event.payload.session.sessionId);
      else if (event.name === 'session.detached') {
        const w = watches.get(event.payload.sessionId);
        // Still shown (the view has not re-rendered yet): stop its refetches, keep the watch count.
        if (w?.timer !== undefined) {
          clock.clearTimeout(w.timer);
          w.timer = undefined;
        }
      }
    },
    /** After a reconnect: the attached sessions and the series on screen, again. */
    resync() {
      void c.loadAttached();
      for (const [id, w] of watches) {
        w.last = -Infinity;
        if (w.timer !== undefined) {
          clock.clearTimeout(w.timer);
          w.timer = undefined;
        }
        request(id);
      }
    },
  };
  return c;
}
