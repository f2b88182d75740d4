import { describe, expect, it, vi } from 'vitest';
import type { StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createController } from '../../../../renderer/controller/controller';
import { type Clock, createSessionsController, DETAIL_INTERVAL_MS } from '../../../../renderer/controller/sessionsController';
import { SESSION_EVENTS } from '../../../../renderer/store/sessions/sessionsActions';
import { createStrataStore } from '../../../../renderer/store/store';
import { makeAgent, stateWithAgents } from '../fixtures';
import { makeLive, makeLiveDetail, makeSession, sessionDetached, sessionUpdated } from '../sessionFixtures';

function fakeApi() {
  const api = {
    listSessions: vi.fn<StrataApi['listSessions']>(async () => ({ sessions: [makeSession('/s/a.jsonl')], roots: ['/home/dev/.claude/projects'] })),
    listAttached: vi.fn<StrataApi['listAttached']>(async () => ({ sessions: [makeLive('ses-1')] })),
    attachSession: vi.fn<StrataApi['attachSession']>(async ({ strategy, budget }) => ({ session: makeLive('ses-2', { path: '/s/a.jsonl', strategy: strategy ?? 'variable', budget: budget ?? 100_000 }) })),
    detachSession: vi.fn<StrataApi['detachSession']>(async ({ sessionId }) => ({ sessionId })),
    getSession: vi.fn<StrataApi['getSession']>(async ({ sessionId }) => makeLiveDetail(sessionId)),
  } satisfies Partial<StrataApi>;
  // Only the commands the sessions controller uses.
  return api as typeof api & StrataApi;
}

/** A clock the test moves by hand: `advance` runs the timers that fall due. */
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
  return { clock, advance, pending: () => timers.size };
}

const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe('sessions controller', () => {
  it('lists discovered sessions with their roots, and shows a failure', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createSessionsController(api, store);
    await c.loadSessions();
    expect(store.getState().sessions.discovered).toMatchObject({ status: 'ready', roots: ['/home/dev/.claude/projects'] });
    api.listSessions.mockRejectedValueOnce(new ApiError({ code: 'internal', message: 'EACCES' }));
    await c.loadSessions();
    expect(store.getState().sessions.discovered).toMatchObject({ status: 'failed', error: 'Sessions could not be listed: EACCES' });
  });

  it('attaches with the chosen strategy and budget and says what the host answered', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    await createSessionsController(api, store).attachSession({ path: '/s/a.jsonl', strategy: 'summary', budget: 64_000 });
    expect(api.attachSession).toHaveBeenCalledExactlyOnceWith({ path: '/s/a.jsonl', strategy: 'summary', budget: 64_000 });
    const s = store.getState().sessions;
    expect(s.order).toEqual(['ses-2']);
    expect(s.notice).toEqual({ status: 'ok', message: 'Attached ses-2 · a.jsonl · Strata summary @ 64,000. Its agents appear in the tree as the host replays it.' });
  });

  it('an attach the host refuses changes nothing and shows its error', async () => {
    const api = fakeApi();
    api.attachSession.mockRejectedValueOnce(new ApiError({ code: 'conflict', message: '8 sessions are attached already; detach one first.' }));
    const store = createStrataStore();
    await createSessionsController(api, store).attachSession({ path: '/s/a.jsonl', strategy: 'variable', budget: 100_000 });
    expect(store.getState().sessions.order).toEqual([]);
    expect(store.getState().sessions.notice).toEqual({ status: 'error', message: 'Could not attach /s/a.jsonl: 8 sessions are attached already; detach one first.' });
  });

  it('detaching drops the session and its agents once the host answers, and clears their selection', async () => {
    const api = fakeApi();
    const store = createStrataStore(stateWithAgents([makeAgent('primary'), makeAgent('ses-1', { sessionId: 'ses-1' })], { selectedAgentId: 'ses-1' }));
    const c = createSessionsController(api, store);
    await c.loadAttached();
    let answer: () => void = () => undefined;
    api.detachSession.mockImplementationOnce(({ sessionId }) => new Promise((r) => (answer = () => r({ sessionId }))));
    const detaching = c.detachSession('ses-1');
    // Nothing optimistic: the session and its agent stay until the answer.
    expect(store.getState().sessions.detaching).toEqual({ 'ses-1': true });
    expect(store.getState().agents.byId['ses-1']).toBeDefined();
    answer();
    await detaching;
    const s = store.getState();
    expect(s.sessions.order).toEqual([]);
    expect(s.agents.order).toEqual(['primary']);
    expect(s.ui.selectedAgentId).toBeNull();
    expect(s.sessions.notice?.message).toBe('Detached ses-1 (ses-1.jsonl): the host stopped following it.');
  });

  it('a failed detach keeps everything and shows why', async () => {
    const api = fakeApi();
    api.detachSession.mockRejectedValueOnce(new ApiError({ code: 'not_found', message: 'No attached session ses-1.' }));
    const store = createStrataStore();
    const c = createSessionsController(api, store);
    await c.loadAttached();
    await c.detachSession('ses-1');
    expect(store.getState().sessions.order).toEqual(['ses-1']);
    expect(store.getState().sessions.notice).toEqual({ status: 'error', message: 'Could not detach ses-1: No attached session ses-1.' });
  });

  it('a watched session is fetched at once, then on its updates at most once per interval (one trailing call)', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const { clock, advance } = fakeClock();
    const c = createSessionsController(api, store, clock);
    await c.loadAttached();
    const release = c.watchSession('ses-1');
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(1);
    expect(store.getState().sessions.details['ses-1']).toBeDefined();

    // Ten updates within 100 ms: one fetch when the interval has passed.
    for (let i = 0; i < 10; i++) {
      c.onEvent(sessionUpdated(makeLive('ses-1', { lines: 40 + i })));
      advance(10);
    }
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(1);
    advance(DETAIL_INTERVAL_MS);
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(2);

    // Updates of other sessions, and of this one after it is released, fetch nothing.
    c.onEvent(sessionUpdated(makeLive('ses-9')));
    release();
    c.onEvent(sessionUpdated(makeLive('ses-1')));
    advance(DETAIL_INTERVAL_MS * 2);
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(2);
  });

  it('an update during a fetch in flight fetches once more after it', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const { clock, advance } = fakeClock();
    let answer: () => void = () => undefined;
    api.getSession.mockImplementationOnce(({ sessionId }) => new Promise((r) => (answer = () => r(makeLiveDetail(sessionId)))));
    const c = createSessionsController(api, store, clock);
    await c.loadAttached();
    c.watchSession('ses-1');
    advance(DETAIL_INTERVAL_MS);
    c.onEvent(sessionUpdated(makeLive('ses-1')));
    expect(api.getSession).toHaveBeenCalledTimes(1);
    answer();
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(2);
  });

  it('a failed fetch is shown with the session; a detach stops its refetch', async () => {
    const api = fakeApi();
    api.getSession.mockRejectedValueOnce(new ApiError({ code: 'internal', message: 'worker crashed' }));
    const store = createStrataStore();
    const { clock, advance, pending } = fakeClock();
    const c = createSessionsController(api, store, clock);
    await c.loadAttached();
    c.watchSession('ses-1');
    await settle();
    expect(store.getState().sessions.detailErrors['ses-1']).toBe('The series of ses-1 could not be loaded: worker crashed');
    c.onEvent(sessionUpdated(makeLive('ses-1')));
    expect(pending()).toBe(1);
    c.onEvent(sessionDetached('ses-1'));
    expect(pending()).toBe(0);
    advance(DETAIL_INTERVAL_MS);
    await settle();
    expect(api.getSession).toHaveBeenCalledTimes(1);
  });

  it('the app controller subscribes to the session events and lists the attached sessions on sync', async () => {
    const api = {
      ...fakeApi(),
      subscribe: vi.fn<StrataApi['subscribe']>(async (events) => ({ events })),
      health: vi.fn(async () => {
        throw new Error('stop here');
      }),
    } as unknown as StrataApi & { subscribe: ReturnType<typeof vi.fn>; listAttached: ReturnType<typeof vi.fn> };
    const store = createStrataStore();
    await createController(api, store).sync();
    expect(api.subscribe).toHaveBeenCalledWith(expect.arrayContaining([...SESSION_EVENTS]), expect.any(Function));
    expect(api.listAttached).toHaveBeenCalledTimes(1);
    await settle();
    expect(store.getState().sessions.order).toEqual(['ses-1']);
  });
});
