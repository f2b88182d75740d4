import { describe, expect, it, vi } from 'vitest';
import type { Envelope, StrataBridge } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { createApi } from '../../../../renderer/api/createApi';
import { logEvent, makeAgent, makeDetail, makeHealth, makeLogEntry } from '../fixtures';

const ok = <T>(value: T): Envelope<T> => ({ ok: true, value });

function fakeBridge(over: Partial<StrataBridge> = {}): StrataBridge {
  // Only the commands these tests call.
  return ({
    health: vi.fn(async () => ok(makeHealth())),
    listAgents: vi.fn(async () => ok({ agents: [] })),
    getAgent: vi.fn(async ({ agentId }) => ok(makeDetail(makeAgent(agentId)))),
    subscribe: vi.fn(async (events: Parameters<StrataBridge['subscribe']>[0]) => ok({ events })),
    ...over,
  }) as Partial<StrataBridge> as StrataBridge;
}

describe('createApi', () => {
  it('an ok envelope resolves to its value, with the arguments passed through', async () => {
    const bridge = fakeBridge();
    const api = createApi(bridge);
    await expect(api.getAgent({ agentId: 'auth-1' })).resolves.toEqual(makeDetail(makeAgent('auth-1')));
    expect(bridge.getAgent).toHaveBeenCalledWith({ agentId: 'auth-1' });
    await expect(api.health({})).resolves.toEqual(makeHealth());
  });

  it('an error envelope rejects with an ApiError carrying code, message and issues', async () => {
    const issues = [{ path: 'agentId', message: 'Too small: expected string to have >=1 characters' }];
    const api = createApi(fakeBridge({ getAgent: async () => ({ ok: false, error: { code: 'invalid_args', message: 'Bad arguments for getAgent.', issues } }) }));
    const err: unknown = await api.getAgent({ agentId: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'ApiError', code: 'invalid_args', message: 'Bad arguments for getAgent.', issues });
  });

  it('an error without issues has issues undefined', async () => {
    const api = createApi(fakeBridge({ health: async () => ({ ok: false, error: { code: 'unavailable', message: 'Host closed.' } }) }));
    await expect(api.health({})).rejects.toMatchObject({ code: 'unavailable', message: 'Host closed.', issues: undefined });
  });

  it('subscribe hands the listener to the bridge and resolves to the subscribed names', async () => {
    const bridge = fakeBridge();
    const listener = vi.fn();
    await expect(createApi(bridge).subscribe(['log'], listener)).resolves.toEqual({ events: ['log'] });
    const handed = vi.mocked(bridge.subscribe).mock.calls[0]?.[1];
    const line = logEvent(makeLogEntry(1));
    handed?.(line);
    expect(listener).toHaveBeenCalledWith(line);
  });

  it('a method the bridge lacks is undefined, and so is a symbol or `then`', () => {
    const api = createApi(fakeBridge()) as unknown as Record<PropertyKey, unknown>;
    expect(api.noSuchCommand).toBeUndefined();
    expect(api.then).toBeUndefined();
    expect(api[Symbol.iterator]).toBeUndefined();
    expect(typeof api.health).toBe('function');
  });
});
