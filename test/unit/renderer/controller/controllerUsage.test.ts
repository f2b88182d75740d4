import { describe, expect, it, vi } from 'vitest';
import type { StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createController } from '../../../../renderer/controller/controller';
import { createStrataStore } from '../../../../renderer/store/store';
import { makeCall } from '../usageFixtures';

describe('controller.loadUsage', () => {
  it('marks the agent loading, then stores its calls', async () => {
    let answer: (u: Awaited<ReturnType<StrataApi['getUsage']>>) => void = () => undefined;
    const getUsage = vi.fn<StrataApi['getUsage']>(() => new Promise((r) => (answer = r)));
    const store = createStrataStore();
    const loading = createController({ getUsage } as unknown as StrataApi, store).loadUsage('a');
    expect(store.getState().usage.loading.a).toBe(true);
    answer({ agentId: 'a', calls: [makeCall('a', 1)], totals: { input: 100, cacheRead: 800, cacheWrite: 100, output: 50, calls: 1, hitRate: 0.8 } });
    await loading;
    expect(getUsage).toHaveBeenCalledWith({ agentId: 'a' });
    expect(store.getState().usage.byAgent.a?.map((p) => p.turn)).toEqual([1]);
    expect(store.getState().usage.loading).toEqual({});
  });

  it('an agent outside the current run ends loading without an error banner', async () => {
    const getUsage = vi.fn<StrataApi['getUsage']>(async () => {
      throw new ApiError({ code: 'not_found', message: 'Agent "a" is not in the current run.' });
    });
    const store = createStrataStore();
    await createController({ getUsage } as unknown as StrataApi, store).loadUsage('a');
    expect(store.getState().usage.loading).toEqual({});
    expect(store.getState().connection.error).toBeNull();
  });

  it('subscribes to the usage and event-log events on sync', async () => {
    const subscribe = vi.fn<StrataApi['subscribe']>(async (events) => ({ events }));
    const api = { subscribe, health: vi.fn(async () => ({})), listAgents: vi.fn(async () => ({ agents: [] })) };
    await createController(api as unknown as StrataApi, createStrataStore()).sync();
    expect(subscribe.mock.calls[0]?.[0]).toEqual(expect.arrayContaining(['usage.recorded', 'generation.created', 'context.refreshed', 'memory.changed', 'run.changed', 'conversation.changed']));
  });
});
