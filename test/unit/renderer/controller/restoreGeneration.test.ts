import { describe, expect, it, vi } from 'vitest';
import type { StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createAgentViewController } from '../../../../renderer/controller/agentViewController';
import { reduce } from '../../../../renderer/store/reduce';
import { createStrataStore } from '../../../../renderer/store/store';
import { demoTree, stateWithAgents } from '../fixtures';
import { makeGeneration, makeSummary } from '../generationFixtures';

function fakeApi() {
  const api = {
    listGenerations: vi.fn<StrataApi['listGenerations']>(async ({ agentId }) => ({ generations: [makeSummary(agentId, 1), makeSummary(agentId, 2), makeSummary(agentId, 3)] })),
    getGeneration: vi.fn<StrataApi['getGeneration']>(async ({ agentId, number }) => makeGeneration(agentId, number ?? 3)),
    restoreGeneration: vi.fn<StrataApi['restoreGeneration']>(async ({ agentId }) => ({ generation: makeSummary(agentId, 3, { boundary: { kind: 'rebuild', reason: 'restored from generation 1' } }), restored: ['tool:a', 'tool:b'], missing: [] })),
  } satisfies Partial<StrataApi>;
  return api as typeof api & StrataApi;
}

describe('restoreGeneration', () => {
  it('[restore-generation] asks the host for the viewed agent, follows the new current generation and says what came back', async () => {
    const api = fakeApi();
    const store = createStrataStore(reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'auth-1' }));
    const c = createAgentViewController(api, store);
    await c.viewGeneration(1);
    expect(store.getState().generations.viewed).toBe(1);
    await c.restoreGeneration(1);
    expect(api.restoreGeneration).toHaveBeenCalledExactlyOnceWith({ agentId: 'auth-1', number: 1 });
    expect(store.getState().generations.viewed).toBeNull();
    expect(store.getState().generations.detail.value?.number).toBe(3);
    expect(store.getState().controls.byKey['agent:auth-1']).toEqual({ status: 'ok', label: 'restore', message: 'Restored from generation 1: generation 3 started · 2 items back in the pool.' });
  });

  it('a refusal shows the host’s reason on the agent and changes nothing', async () => {
    const api = fakeApi();
    api.restoreGeneration.mockRejectedValueOnce(new ApiError({ code: 'invalid_args', message: 'Generation 1 of "auth-1" is older than the newest generations kept in memory; its items cannot be restored.' }));
    const store = createStrataStore(reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'auth-1' }));
    const c = createAgentViewController(api, store);
    await c.viewGeneration(1);
    await c.restoreGeneration(1);
    expect(store.getState().generations.viewed).toBe(1);
    expect(store.getState().controls.byKey['agent:auth-1']).toMatchObject({ status: 'error', message: 'restore failed: Generation 1 of "auth-1" is older than the newest generations kept in memory; its items cannot be restored.' });
  });
});

describe('askChange and confirmChange', () => {
  it('[change-preview] asks the host for the preview, then runs the control only when confirmed; cancel changes nothing', async () => {
    const api = {
      ...fakeApi(),
      previewItemChange: vi.fn<StrataApi['previewItemChange']>(async ({ itemId, change }) => ({ itemId, change, agents: [{ agentId: 'primary', generation: 2, layer: 'L1', when: 'next build', promptTokens: 900, lostTokens: 800 }] })),
      remove: vi.fn<StrataApi['remove']>(async ({ itemId }) => ({ itemId })),
    } as unknown as StrataApi & { previewItemChange: ReturnType<typeof vi.fn>; remove: ReturnType<typeof vi.fn> };
    const store = createStrataStore(reduce(stateWithAgents(demoTree()), { type: 'agent.select', agentId: 'auth-1' }));
    const c = createAgentViewController(api, store);
    await c.askChange('acceptance', 'remove', 'Acceptance');
    expect(api.previewItemChange).toHaveBeenCalledExactlyOnceWith({ itemId: 'acceptance', change: 'remove' });
    expect(store.getState().controls.confirm).toMatchObject({ itemId: 'acceptance', change: 'remove', status: 'ready', agents: [{ agentId: 'primary', lostTokens: 800 }] });
    expect(api.remove).not.toHaveBeenCalled();
    c.cancelChange();
    expect(store.getState().controls.confirm).toBeNull();
    await c.confirmChange();
    expect(api.remove).not.toHaveBeenCalled();

    await c.askChange('acceptance', 'remove', 'Acceptance');
    await c.confirmChange();
    expect(api.remove).toHaveBeenCalledExactlyOnceWith({ itemId: 'acceptance' });
    expect(store.getState().controls.confirm).toBeNull();
    expect(store.getState().controls.byKey['item:acceptance']).toMatchObject({ status: 'ok', label: 'remove' });
  });
});
