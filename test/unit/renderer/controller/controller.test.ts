import { describe, expect, it, vi } from 'vitest';
import type { AgentDto, StrataApi, StrataEvent } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createController } from '../../../../renderer/controller/controller';
import { createStrataStore } from '../../../../renderer/store/store';
import { ASYNC_WAIT_MS } from '../../../support/testTimeouts.mjs';
import { agentUpdated, demoTree, makeAgent, makeDetail, makeHealth, makeLogEntry, stateWithAgents } from '../fixtures';

function fakeApi(agents: AgentDto[]) {
  const api = {
    health: vi.fn<StrataApi['health']>(async () => makeHealth({ agents: agents.length })),
    listAgents: vi.fn<StrataApi['listAgents']>(async () => ({ agents })),
    getAgent: vi.fn<StrataApi['getAgent']>(async ({ agentId }) => {
      const agent = agents.find((a) => a.agentId === agentId);
      if (!agent) throw new ApiError({ code: 'not_found', message: `No agent ${agentId}.` });
      return makeDetail(agent, [makeLogEntry(10, { agentId, message: `${agentId} started` })]);
    }),
    subscribe: vi.fn<StrataApi['subscribe']>(async (events) => ({ events })),
  } satisfies Partial<StrataApi>;
  // Only the commands the controller uses; the rest of the api is never called here.
  return api as typeof api & StrataApi;
}

/** Let pending promise callbacks run. */
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe('createController', () => {
  describe('sync', () => {
    it('subscribes to agent.updated and log before listing, and lists only once subscribed', async () => {
      const api = fakeApi(demoTree());
      let confirm: () => void = () => undefined;
      api.subscribe.mockImplementationOnce((events) => new Promise((r) => (confirm = () => r({ events }))));
      const syncing = createController(api, createStrataStore()).sync();

      await settle();
      expect(api.subscribe).toHaveBeenCalledWith(expect.arrayContaining(['agent.updated', 'log']), expect.any(Function));
      expect(api.listAgents).not.toHaveBeenCalled();
      expect(api.health).not.toHaveBeenCalled();

      confirm();
      await syncing;
      expect(api.subscribe.mock.invocationCallOrder[0]).toBeLessThan(api.listAgents.mock.invocationCallOrder[0] ?? -1);
    });

    it('loads health and agents, selects the first agent and loads its detail', async () => {
      const agents = demoTree();
      const api = fakeApi(agents);
      const store = createStrataStore();
      await createController(api, store).sync();

      const s = store.getState();
      expect(s.connection.health).toEqual(makeHealth({ agents: 5 }));
      expect(s.agents.order).toEqual(agents.map((a) => a.agentId));
      expect(s.ui.selectedAgentId).toBe('primary');
      expect(api.getAgent).toHaveBeenCalledExactlyOnceWith({ agentId: 'primary' });
      expect(s.log.entries.map((e) => e.message)).toEqual(['primary started']);
      expect(s.connection.error).toBeNull();
    });

    it('keeps an agent the operator already selected (a resync after reconnect)', async () => {
      const api = fakeApi(demoTree());
      const store = createStrataStore(stateWithAgents([], { selectedAgentId: 'auth-2' }));
      await createController(api, store).sync();
      expect(store.getState().ui.selectedAgentId).toBe('auth-2');
      expect(api.getAgent).toHaveBeenCalledExactlyOnceWith({ agentId: 'auth-2' });
    });

    it('with no agents, selects nothing and loads no detail', async () => {
      const api = fakeApi([]);
      const store = createStrataStore();
      await createController(api, store).sync();
      expect(store.getState().ui.selectedAgentId).toBeNull();
      expect(api.getAgent).not.toHaveBeenCalled();
    });

    it('live events from the subscription reach the store', async () => {
      const api = fakeApi(demoTree());
      const store = createStrataStore();
      await createController(api, store).sync();
      const listener = api.subscribe.mock.calls[0]?.[1] as (e: StrataEvent) => void;

      const spawned = agentUpdated(makeAgent('auth-3', { parent: 'primary' }));
      const changes = vi.fn();
      store.subscribe(changes);
      listener(spawned);
      listener({ name: 'log', payload: { entry: makeLogEntry(11, { message: 'auth-3 spawned' }) } });
      // Events that arrive together reach the store together, at the next frame: one change.
      expect(store.getState().agents.order.at(-1)).not.toBe('auth-3');
      await vi.waitFor(() => expect(store.getState().agents.order.at(-1)).toBe('auth-3'), { timeout: ASYNC_WAIT_MS });
      expect(store.getState().log.entries.map((e) => e.message)).toEqual(['primary started', 'auth-3 spawned']);
      expect(changes).toHaveBeenCalledTimes(1);
    });

    it.each([
      { step: 'subscribe', fail: (api: ReturnType<typeof fakeApi>) => api.subscribe.mockRejectedValue(new ApiError({ code: 'unavailable', message: 'The connection to the Strata host was lost.' })), message: 'The connection to the Strata host was lost.' },
      { step: 'listAgents', fail: (api: ReturnType<typeof fakeApi>) => api.listAgents.mockRejectedValue(new ApiError({ code: 'internal', message: 'Catalog is locked.' })), message: 'Catalog is locked.' },
      { step: 'health', fail: (api: ReturnType<typeof fakeApi>) => api.health.mockRejectedValue('plain string failure'), message: 'plain string failure' },
    ])('a rejection in $step lands in connection.error', async ({ fail, message }) => {
      const api = fakeApi(demoTree());
      fail(api);
      const store = createStrataStore();
      await expect(createController(api, store).sync()).resolves.toBeUndefined();
      expect(store.getState().connection.error).toBe(message);
    });

    it('a failed subscribe does not list', async () => {
      const api = fakeApi(demoTree());
      api.subscribe.mockRejectedValue(new ApiError({ code: 'unavailable', message: 'down' }));
      const store = createStrataStore();
      await createController(api, store).sync();
      expect(api.listAgents).not.toHaveBeenCalled();
      expect(store.getState().agents.order).toEqual([]);
    });
  });

  describe('select', () => {
    it('selects at once, then loads the detail into the store', async () => {
      const agents = demoTree();
      const api = fakeApi(agents);
      const store = createStrataStore(stateWithAgents(agents));
      const selecting = createController(api, store).select('auth-1');
      expect(store.getState().ui.selectedAgentId).toBe('auth-1');
      await selecting;
      expect(api.getAgent).toHaveBeenCalledWith({ agentId: 'auth-1' });
      expect(store.getState().log.entries.map((e) => e.message)).toEqual(['auth-1 started']);
    });

    it('select(null) clears the selection without a call', async () => {
      const api = fakeApi(demoTree());
      const store = createStrataStore(stateWithAgents(demoTree(), { selectedAgentId: 'auth-1' }));
      await createController(api, store).select(null);
      expect(store.getState().ui.selectedAgentId).toBeNull();
      expect(api.getAgent).not.toHaveBeenCalled();
    });

    it('a failed detail lands in connection.error and keeps the selection', async () => {
      const api = fakeApi(demoTree());
      const store = createStrataStore();
      await expect(createController(api, store).select('ghost')).resolves.toBeUndefined();
      expect(store.getState().connection.error).toBe('No agent ghost.');
      expect(store.getState().ui.selectedAgentId).toBe('ghost');
    });
  });
});

describe('[run-follow] createController when a new run begins', () => {
  it('lists the new run\'s agents and reloads the selected one, or the primary when the new run has no agent of that id yet', async () => {
    const oldRun = [makeAgent('primary', { revision: 50 }), makeAgent('worker-a', { parent: 'primary', revision: 40 })];
    const api = fakeApi(oldRun);
    const extra = {
      listGenerations: vi.fn(async () => ({ generations: [] })),
      getGeneration: vi.fn(async () => {
        throw new ApiError({ code: 'not_found', message: 'none yet' });
      }),
      listRuns: vi.fn(async () => ({ runs: [{ runId: 'demo', driver: 'trace' as const, label: 'Demo', status: 'running' as const, startedAt: 1, turns: 9, agents: 2, tickMs: 250, reason: null }] })),
      getUsage: vi.fn(async ({ agentId }: { agentId: string }) => ({ agentId, calls: [], totals: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, calls: 0, hitRate: 0 } })),
    };
    Object.assign(api, extra);
    const store = createStrataStore();
    const controller = createController(api, store);
    await controller.sync();
    await controller.select('worker-a');
    const listed = api.listAgents.mock.calls.length;

    // The new run: only its primary so far, at a revision that started over.
    oldRun.splice(0, oldRun.length, makeAgent('primary', { revision: 0, status: 'waiting' }));
    store.getState().dispatch({ type: 'event', event: { name: 'run.changed', payload: { run: { runId: 'demo', driver: 'trace', label: 'Demo', status: 'stopped', startedAt: 1, turns: 9, agents: 2, tickMs: 250, reason: 'stopped by an operator' } } } });
    store.getState().dispatch({ type: 'run.result', run: { runId: 'demo', driver: 'trace', label: 'Demo', status: 'running', startedAt: 2, turns: 0, agents: 1, tickMs: 250, reason: null } });
    await vi.waitFor(() => expect(store.getState().ui.selectedAgentId).toBe('primary'), { timeout: ASYNC_WAIT_MS });
    await vi.waitFor(() => expect(store.getState().agents.order).toEqual(['primary']), { timeout: ASYNC_WAIT_MS });
    expect(api.listAgents.mock.calls.length).toBe(listed + 1);
    expect(store.getState().agents.byId.primary).toMatchObject({ revision: 0, status: 'waiting' });
    await vi.waitFor(() => expect(extra.getUsage).toHaveBeenCalledWith({ agentId: 'primary' }), { timeout: ASYNC_WAIT_MS });
  });
});
