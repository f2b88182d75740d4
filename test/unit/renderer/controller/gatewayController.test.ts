import { describe, expect, it, vi } from 'vitest';
import type { StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createController } from '../../../../renderer/controller/controller';
import { createGatewayController, GATEWAY_DETAIL_INTERVAL_MS } from '../../../../renderer/controller/gatewayController';
import type { Clock } from '../../../../renderer/controller/sessionsController';
import { GATEWAY_EVENTS } from '../../../../renderer/store/gateway/gatewayActions';
import { createStrataStore } from '../../../../renderer/store/store';
import { gatewayCallEvent, gatewaySessionEvent, gatewayStatusEvent, makeGatewayCall, makeGatewayDetail, makeGatewaySession, makeGatewayStatus, stoppedGateway } from '../gatewayFixtures';

function fakeApi() {
  const api = {
    getGateway: vi.fn<StrataApi['getGateway']>(async () => ({ status: stoppedGateway() })),
    startGateway: vi.fn<StrataApi['startGateway']>(async () => ({ status: makeGatewayStatus() })),
    stopGateway: vi.fn<StrataApi['stopGateway']>(async () => ({ status: stoppedGateway() })),
    listGatewaySessions: vi.fn<StrataApi['listGatewaySessions']>(async () => ({ sessions: [makeGatewaySession('gs-1')] })),
    getGatewaySession: vi.fn<StrataApi['getGatewaySession']>(async ({ sessionId }) => makeGatewayDetail(sessionId)),
    setGatewayMode: vi.fn<StrataApi['setGatewayMode']>(async ({ sessionId, mode }) => ({ session: makeGatewaySession(sessionId, { mode }) })),
    gatewayControl: vi.fn<StrataApi['gatewayControl']>(async ({ itemKey }) => ({ pins: [itemKey], removals: [] })),
    getGatewayRequest: vi.fn<StrataApi['getGatewayRequest']>(async ({ callId }) => ({ callId, original: '{"a":1}', rewritten: '{"a":2}' })),
  } satisfies Partial<StrataApi>;
  return api as typeof api & StrataApi;
}

function fakeClock() {
  let now = 1_000;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, run });
      return id as unknown as ReturnType<typeof setTimeout>;
    },
    clearTimeout: (h) => void timers.delete(h as unknown as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...timers]) {
      if (t.at > now) continue;
      timers.delete(id);
      t.run();
    }
  };
  return { clock, advance };
}

const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe('gateway controller', () => {
  it('loads the status and the sessions; a failure is said in words', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createGatewayController(api, store);
    await c.loadGateway();
    expect(store.getState().gateway).toMatchObject({ load: 'ready', status: { running: false } });
    expect(store.getState().gateway.sessions.map((s) => s.id)).toEqual(['gs-1']);
    api.getGateway.mockRejectedValueOnce(new ApiError({ code: 'unavailable', message: 'host down' }));
    await c.loadGateway();
    expect(store.getState().gateway.loadError).toBe("The gateway's status could not be loaded: host down");
  });

  it('start passes the port and the mode, then lists again; a refusal keeps the status and says why', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createGatewayController(api, store);
    await c.loadGateway();
    api.startGateway.mockRejectedValueOnce(new ApiError({ code: 'conflict', message: 'The gateway could not start: listen EADDRINUSE 127.0.0.1:8787' }));
    await c.startGateway({ port: 8787, mode: 'manage' });
    expect(api.startGateway).toHaveBeenLastCalledWith({ port: 8787, mode: 'manage' });
    expect(store.getState().gateway.status?.running).toBe(false);
    expect(store.getState().gateway.notice).toEqual({ status: 'error', message: 'The gateway did not start: The gateway could not start: listen EADDRINUSE 127.0.0.1:8787' });
    await c.startGateway({});
    expect(api.startGateway).toHaveBeenLastCalledWith({});
    expect(store.getState().gateway.status?.running).toBe(true);
    expect(store.getState().gateway.notice?.message).toBe('The gateway is listening at http://127.0.0.1:8787; new sessions start in observe mode.');
    expect(api.listGatewaySessions).toHaveBeenCalledTimes(2);
    await c.stopGateway();
    expect(store.getState().gateway.status?.running).toBe(false);
  });

  it("a selected session's detail is fetched now and again on its events, at most every 250 ms; other sessions' events fetch nothing", async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const { clock, advance } = fakeClock();
    const c = createGatewayController(api, store, clock);
    await c.loadGateway();
    await c.selectGatewaySession('gs-1');
    expect(api.getGatewaySession).toHaveBeenCalledTimes(1);
    expect(store.getState().gateway.detail?.session.id).toBe('gs-1');
    c.onEvent(gatewaySessionEvent(makeGatewaySession('gs-1', { updatedAt: 2_000 })));
    c.onEvent(gatewaySessionEvent(makeGatewaySession('gs-1', { updatedAt: 2_100 })));
    c.onEvent(gatewaySessionEvent(makeGatewaySession('gs-9')));
    // A call of a thread the detail holds merges in the store; no fetch for it.
    c.onEvent(gatewayCallEvent(makeGatewayCall('c1', { sessionId: 'gs-1', threadId: 'th-main' })));
    expect(api.getGatewaySession).toHaveBeenCalledTimes(1);
    advance(GATEWAY_DETAIL_INTERVAL_MS);
    await settle();
    expect(api.getGatewaySession).toHaveBeenCalledTimes(2);
    // A call of a new thread (a subagent) needs the detail again.
    advance(GATEWAY_DETAIL_INTERVAL_MS);
    c.onEvent(gatewayCallEvent(makeGatewayCall('c2', { sessionId: 'gs-1', threadId: 'th-new' })));
    await settle();
    expect(api.getGatewaySession).toHaveBeenCalledTimes(3);
    await c.selectGatewaySession(null);
    c.onEvent(gatewaySessionEvent(makeGatewaySession('gs-1', { updatedAt: 3_000 })));
    advance(GATEWAY_DETAIL_INTERVAL_MS);
    expect(api.getGatewaySession).toHaveBeenCalledTimes(3);
  });

  it('gateway.status lists the sessions again', async () => {
    const api = fakeApi();
    const c = createGatewayController(api, createStrataStore());
    c.onEvent(gatewayStatusEvent(makeGatewayStatus()));
    await settle();
    expect(api.listGatewaySessions).toHaveBeenCalledTimes(1);
  });

  it('mode switch and pin call the host with the right arguments; a refusal changes nothing', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createGatewayController(api, store);
    await c.loadGateway();
    await c.selectGatewaySession('gs-1');
    await c.setGatewayMode('gs-1', 'manage');
    expect(api.setGatewayMode).toHaveBeenCalledWith({ sessionId: 'gs-1', mode: 'manage' });
    expect(store.getState().gateway.detail?.session.mode).toBe('manage');
    expect(store.getState().gateway.notice?.message).toBe('Session gs-1 is in manage mode from its next call on.');
    await c.gatewayControl({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_1', action: 'pin' });
    expect(api.gatewayControl).toHaveBeenCalledWith({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_1', action: 'pin' });
    expect(store.getState().gateway.detail?.threads[0]?.pins).toEqual(['toolu_1']);
    const before = store.getState().gateway.detail;
    api.gatewayControl.mockRejectedValueOnce(new ApiError({ code: 'conflict', message: 'toolu_1 is pinned; unpin it before removing it.' }));
    await c.gatewayControl({ sessionId: 'gs-1', threadId: 'th-main', itemKey: 'toolu_1', action: 'remove' });
    expect(store.getState().gateway.detail).toBe(before);
    expect(store.getState().gateway.notice).toEqual({ status: 'error', message: 'toolu_1 was not changed: toolu_1 is pinned; unpin it before removing it.' });
    expect(store.getState().gateway.busy).toEqual({});
  });

  it('opens a request, and says why when the host no longer keeps it', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createGatewayController(api, store);
    await c.openGatewayRequest('c1');
    expect(store.getState().gateway.request).toEqual({ callId: 'c1', original: '{"a":1}', rewritten: '{"a":2}', error: null });
    api.getGatewayRequest.mockRejectedValueOnce(new ApiError({ code: 'not_found', message: 'No request kept' }));
    await c.openGatewayRequest('c2');
    expect(store.getState().gateway.request).toMatchObject({ callId: 'c2', original: null, error: 'The request of call c2 could not be loaded: No request kept' });
  });

  it('the app controller subscribes to the gateway events with the rest', async () => {
    const api = { ...fakeApi(), subscribe: vi.fn<StrataApi['subscribe']>(async (events) => ({ events })) } as unknown as StrataApi & { subscribe: ReturnType<typeof vi.fn<StrataApi['subscribe']>> };
    await createController(api, createStrataStore()).sync();
    expect(api.subscribe).toHaveBeenCalledWith(expect.arrayContaining([...GATEWAY_EVENTS]), expect.any(Function));
  });
});
