import { describe, expect, it, vi } from 'vitest';
import type { StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createAgentViewController } from '../../../../renderer/controller/agentViewController';
import { reduce } from '../../../../renderer/store/reduce';
import { createStrataStore } from '../../../../renderer/store/store';
import { agentUpdated, demoTree, makeAgent, stateWithAgents } from '../fixtures';
import { generationStarted, makeDiff, makeGeneration, makeItem, makeRun, makeSummary } from '../generationFixtures';

function fakeApi() {
  const api = {
    listGenerations: vi.fn<StrataApi['listGenerations']>(async ({ agentId }) => ({ generations: [makeSummary(agentId, 1), makeSummary(agentId, 2)] })),
    getGeneration: vi.fn<StrataApi['getGeneration']>(async ({ agentId, number }) => makeGeneration(agentId, number ?? 2)),
    diffGenerations: vi.fn<StrataApi['diffGenerations']>(async ({ agentId, from, to }) => makeDiff(agentId, from, to)),
    pin: vi.fn<StrataApi['pin']>(async ({ itemId }) => ({ item: makeItem(itemId, { pinned: true }) })),
    remove: vi.fn<StrataApi['remove']>(async ({ itemId }) => ({ itemId })),
    promoteToMemory: vi.fn<StrataApi['promoteToMemory']>(),
    refresh: vi.fn<StrataApi['refresh']>(async () => ({ from: 2, to: 3, text: 'Context refreshed · Generation 2 → 3 · Reason: manual refresh by an operator' })),
    rebuild: vi.fn<StrataApi['rebuild']>(async ({ agentId }) => ({ generation: makeSummary(agentId, 3, { boundary: { kind: 'rebuild', reason: 'manual rebuild by an operator' } }) })),
    listRuns: vi.fn<StrataApi['listRuns']>(async () => ({ runs: [makeRun()] })),
    stepRun: vi.fn<StrataApi['stepRun']>(async () => ({ run: makeRun({ status: 'paused', turns: 4 }) })),
    startRun: vi.fn<StrataApi['startRun']>(),
  } satisfies Partial<StrataApi>;
  return api as typeof api & StrataApi;
}

const selectedStore = (agentId = 'auth-1') => createStrataStore(reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId }));
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe('createAgentViewController', () => {
  it('loadGenerations loads the list and the current generation of the agent', async () => {
    const api = fakeApi();
    const store = selectedStore();
    await createAgentViewController(api, store).loadGenerations('auth-1');
    expect(api.getGeneration).toHaveBeenCalledExactlyOnceWith({ agentId: 'auth-1' });
    const g = store.getState().generations;
    expect(g.list.value.map((x) => x.number)).toEqual([1, 2]);
    expect(g.detail).toMatchObject({ status: 'ready', value: { number: 2 } });
  });

  it('viewGeneration asks for that number; a failure lands in the detail, not in the connection banner', async () => {
    const api = fakeApi();
    api.getGeneration.mockRejectedValueOnce(new ApiError({ code: 'not_found', message: 'Agent "auth-1" has no generation 9.' }));
    const store = selectedStore();
    await createAgentViewController(api, store).viewGeneration(9);
    expect(api.getGeneration).toHaveBeenCalledWith({ agentId: 'auth-1', number: 9 });
    expect(store.getState().generations.detail).toMatchObject({ status: 'error', error: 'Agent "auth-1" has no generation 9.' });
    expect(store.getState().connection.error).toBeNull();
  });

  it('pin: one command, the item updated in place, the list reloaded, the result shown', async () => {
    const api = fakeApi();
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.loadGenerations('auth-1');
    api.listGenerations.mockClear();
    await c.pin('finding:1');
    expect(api.pin).toHaveBeenCalledExactlyOnceWith({ itemId: 'finding:1' });
    expect(store.getState().generations.detail.value?.included.find((e) => e.item.id === 'finding:1')?.item.pinned).toBe(true);
    expect(api.listGenerations).toHaveBeenCalledOnce();
    expect(store.getState().controls.byKey['item:finding:1']).toMatchObject({ status: 'ok', label: 'pin' });
  });

  it('a failed control changes nothing and shows the host’s message for that item', async () => {
    const api = fakeApi();
    api.promoteToMemory.mockRejectedValue(new ApiError({ code: 'unavailable', message: 'Project memory is off (STRATA_MEMORY=off).' }));
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.loadGenerations('auth-1');
    const before = store.getState().generations;
    await c.promoteToMemory('finding:1');
    expect(store.getState().generations).toBe(before);
    expect(store.getState().controls.byKey['item:finding:1']).toEqual({ status: 'error', label: 'promote to memory', message: 'promote to memory failed: Project memory is off (STRATA_MEMORY=off).' });
  });

  it('refresh follows the new current generation and opens the diff of the boundary', async () => {
    const api = fakeApi();
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.viewGeneration(1);
    await c.refresh('auth-1', 'stale');
    expect(api.refresh).toHaveBeenCalledExactlyOnceWith({ agentId: 'auth-1', reason: 'stale' });
    const g = store.getState().generations;
    expect(g.viewed).toBeNull();
    expect(api.diffGenerations).toHaveBeenCalledExactlyOnceWith({ agentId: 'auth-1', from: 2, to: 3 });
    expect(g.diff.value).toMatchObject({ from: 2, to: 3 });
    expect(store.getState().controls.byKey['agent:auth-1']?.message).toBe('Context refreshed · Generation 2 → 3 · Reason: manual refresh by an operator');
  });

  it('remove marks the item removed; rebuild reports the new generation', async () => {
    const api = fakeApi();
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.loadGenerations('auth-1');
    await c.remove('old:1');
    expect(store.getState().generations.removed).toEqual({ 'old:1': true });
    await c.rebuild('auth-1');
    expect(store.getState().controls.byKey['agent:auth-1']?.message).toBe('Rebuilt: generation 3 · manual rebuild by an operator');
  });

  it('runs: list, step (the result goes into the runs slice), start failure shown on the run bar', async () => {
    const api = fakeApi();
    api.startRun.mockRejectedValue(new ApiError({ code: 'conflict', message: 'Run demo is running; stop it before starting another.' }));
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.loadRuns();
    await c.stepRun('demo');
    expect(api.stepRun).toHaveBeenCalledExactlyOnceWith({ runId: 'demo' });
    expect(store.getState().runs.list[0]).toMatchObject({ status: 'paused', turns: 4 });
    await c.startRun();
    expect(store.getState().controls.byKey.run).toMatchObject({ status: 'error', message: 'start failed: Run demo is running; stop it before starting another.' });
  });

  it('reacts to events of the selected agent: a new generation or a token change reloads; others do not', async () => {
    const api = fakeApi();
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    await c.loadGenerations('auth-1');
    api.listGenerations.mockClear();
    api.getGeneration.mockClear();

    c.onEvent(generationStarted('auth-2', 5));
    c.onEvent(agentUpdated(makeAgent('auth-2', { generation: 9 })));
    await settle();
    expect(api.getGeneration).not.toHaveBeenCalled();

    c.onEvent(generationStarted('auth-1', 3));
    await settle();
    expect(api.listGenerations).toHaveBeenCalledOnce();
    expect(api.getGeneration).toHaveBeenCalledOnce();

    api.getGeneration.mockClear();
    // Same generation, more tokens (a build inside the generation): the detail alone reloads.
    c.onEvent(agentUpdated(makeAgent('auth-1', { generation: 2, tokens: 999 })));
    await settle();
    expect(api.getGeneration).toHaveBeenCalledOnce();
  });

  it('coalesces reloads: a burst of events while loading makes one more load, not one per event', async () => {
    const api = fakeApi();
    const store = selectedStore();
    const c = createAgentViewController(api, store);
    let release: () => void = () => undefined;
    api.getGeneration.mockImplementationOnce(({ agentId }) => new Promise((r) => (release = () => r(makeGeneration(agentId, 2)))));
    const first = c.loadGenerations('auth-1');
    await settle();
    for (let i = 0; i < 5; i++) c.onEvent(generationStarted('auth-1', 3 + i));
    release();
    await first;
    await settle();
    await settle();
    expect(api.getGeneration.mock.calls.length).toBe(2);
  });
});
