import type { CommandArgs, GatewayCallDto, StrataApi, StrataEvent } from '../../engine/contract';
import type { StrataStore } from '../store/store';
import { type Clock, systemClock } from './sessionsController';

type GatewayMode = NonNullable<CommandArgs<'startGateway'>['mode']>;
type ControlAction = CommandArgs<'gatewayControl'>['action'];

/** What the Gateway view asks of the host (through the controller only). */
export interface GatewayController {
  /** The status and the sessions (`getGateway`, `listGatewaySessions`). */
  loadGateway(): Promise<void>;
  /** Start the gateway (on `port` when given, new sessions in `mode`); a refusal is shown in words and changes nothing. */
  startGateway(args: { port?: number; mode?: GatewayMode }): Promise<void>;
  stopGateway(): Promise<void>;
  /** Show one session (null: none): its detail now, then again on its events, at most every {@link GATEWAY_DETAIL_INTERVAL_MS}. */
  selectGatewaySession(sessionId: string | null): Promise<void>;
  /** Switch the selected session between observe and manage, from its next call. */
  setGatewayMode(sessionId: string, mode: GatewayMode): Promise<void>;
  /** Pin, unpin, remove or restore one item of a managed thread, from its next call. */
  gatewayControl(args: { sessionId: string; threadId: string; itemKey: string; action: ControlAction }): Promise<void>;
  /** Open a managed call's original and rewritten request. */
  openGatewayRequest(callId: string): Promise<void>;
}

/** Shortest time between two `getGatewaySession` calls: the host batches the gateway's events at most four a second. */
export const GATEWAY_DETAIL_INTERVAL_MS = 250;

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const CONTROL_DONE: Record<ControlAction, string> = {
  pin: 'pinned: it stays whole',
  unpin: 'unpinned: manage mode may compress it again',
  remove: 'removed: it is dropped from the request',
  restore: 'restored: it comes back',
};

export function createGatewayController(api: StrataApi, store: StrataStore, clock: Clock = systemClock): GatewayController & { onEvent(event: StrataEvent): void; resync(): void } {
  const { dispatch } = store.getState();
  const selected = () => store.getState().gateway.selectedId;

  // One throttled fetch of the selected session's detail: one trailing call however many events.
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  let again = false;

  const fetchDetail = async (): Promise<void> => {
    const sessionId = selected();
    if (!sessionId) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    last = clock.now();
    try {
      dispatch({ type: 'gateway.detail', detail: await api.getGatewaySession({ sessionId }) });
    } catch (err) {
      dispatch({ type: 'gateway.detailFailed', sessionId, message: `Gateway session ${sessionId} could not be loaded: ${message(err)}` });
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      request();
    }
  };

  const request = (): void => {
    if (timer !== undefined || !selected()) return;
    const wait = last + GATEWAY_DETAIL_INTERVAL_MS - clock.now();
    if (wait <= 0) {
      void fetchDetail();
      return;
    }
    timer = clock.setTimeout(() => {
      timer = undefined;
      void fetchDetail();
    }, wait);
  };

  const cancel = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };

  const listSessions = async () => {
    try {
      dispatch({ type: 'gateway.sessionsListed', sessions: (await api.listGatewaySessions({})).sessions });
    } catch (err) {
      dispatch({ type: 'gateway.loadFailed', message: `The gateway's sessions could not be listed: ${message(err)}` });
    }
  };

  const c: GatewayController & { onEvent(event: StrataEvent): void; resync(): void } = {
    async loadGateway() {
      dispatch({ type: 'gateway.loading' });
      try {
        const [{ status }, { sessions }] = await Promise.all([api.getGateway({}), api.listGatewaySessions({})]);
        dispatch({ type: 'gateway.loaded', status, sessions });
      } catch (err) {
        dispatch({ type: 'gateway.loadFailed', message: `The gateway's status could not be loaded: ${message(err)}` });
      }
    },
    async startGateway({ port, mode }) {
      dispatch({ type: 'gateway.toggling' });
      try {
        const { status } = await api.startGateway({ ...(port !== undefined ? { port } : {}), ...(mode ? { mode } : {}) });
        dispatch({ type: 'gateway.toggled', status, message: `The gateway is listening at ${status.origin ?? '?'}; new sessions start in ${status.mode} mode.` });
      } catch (err) {
        dispatch({ type: 'gateway.toggleFailed', message: `The gateway did not start: ${message(err)}` });
        return;
      }
      await listSessions();
    },
    async stopGateway() {
      dispatch({ type: 'gateway.toggling' });
      try {
        const { status } = await api.stopGateway({});
        dispatch({ type: 'gateway.toggled', status, message: 'The gateway stopped; the sessions it saw stay readable until it starts again.' });
      } catch (err) {
        dispatch({ type: 'gateway.toggleFailed', message: `The gateway did not stop: ${message(err)}` });
      }
    },
    async selectGatewaySession(sessionId) {
      cancel();
      dispatch({ type: 'gateway.select', sessionId });
      last = -Infinity;
      if (sessionId) await fetchDetail();
    },
    async setGatewayMode(sessionId, mode) {
      dispatch({ type: 'gateway.busy', key: sessionId });
      try {
        const { session } = await api.setGatewayMode({ sessionId, mode });
        dispatch({ type: 'gateway.modeSet', session, message: `Session ${sessionId} is in ${session.mode} mode from its next call on.` });
      } catch (err) {
        dispatch({ type: 'gateway.changeFailed', key: sessionId, message: `Session ${sessionId} stayed in its mode: ${message(err)}` });
      }
    },
    async gatewayControl(args) {
      const key = controlKey(args.threadId, args.itemKey);
      dispatch({ type: 'gateway.busy', key });
      try {
        const { pins, removals } = await api.gatewayControl(args);
        dispatch({ type: 'gateway.controlled', key, threadId: args.threadId, pins, removals, message: `${args.itemKey} ${CONTROL_DONE[args.action]} at the thread's next generation boundary.` });
      } catch (err) {
        dispatch({ type: 'gateway.changeFailed', key, message: `${args.itemKey} was not changed: ${message(err)}` });
      }
    },
    async openGatewayRequest(callId) {
      dispatch({ type: 'gateway.requestOpen', callId });
      try {
        const r = await api.getGatewayRequest({ callId });
        dispatch({ type: 'gateway.request', callId, original: r.original, rewritten: r.rewritten });
      } catch (err) {
        dispatch({ type: 'gateway.requestFailed', callId, message: `The request of call ${callId} could not be loaded: ${message(err)}` });
      }
    },
    onEvent(event) {
      const id = selected();
      if (event.name === 'gateway.status') {
        // A start replaces what the gateway saw; a stop keeps it: list again either way.
        void listSessions();
        return;
      }
      if (!id) return;
      if (event.name === 'gateway.session' && event.payload.sessions.some((s) => s.id === id)) request();
      // A call of a thread the detail does not hold yet (a new subagent) needs the detail again.
      else if (event.name === 'gateway.call' && event.payload.calls.some((call) => call.sessionId === id && !holdsThread(call))) request();
    },
    /** After a reconnect: the status, the sessions and the shown session, again. */
    resync() {
      void c.loadGateway();
      cancel();
      last = -Infinity;
      request();
    },
  };

  const holdsThread = (call: GatewayCallDto) => store.getState().gateway.detail?.threads.some((t) => t.id === call.threadId) ?? false;
  return c;
}

/** The busy key of one item's control (the store marks it while the command is in flight). */
export const controlKey = (threadId: string, itemKey: string): string => `${threadId}\u0000${itemKey}`;
