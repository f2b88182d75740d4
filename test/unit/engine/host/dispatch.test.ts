import { describe, expect, it, vi } from 'vitest';
import { StrataError } from '../../../../engine/contract';
import { EngineError } from '../../../../engine/EngineEvent';
import { dispatch } from '../../../../engine/host/dispatch';
import { EventHub } from '../../../../engine/host/EventHub';
import type { Handlers } from '../../../../engine/host/handlers';

const session = new EventHub().open(() => {});

const handlers = (getAgent: Handlers['getAgent']): Handlers =>
  ({
    health: () => {
      throw new Error('unused');
    },
    listAgents: () => ({ agents: [] }),
    getAgent,
    subscribe: ({ events }) => ({ events }),
  }) as Partial<Handlers> as Handlers;

describe('dispatch', () => {
  it('runs the handler with parsed arguments and wraps the value', async () => {
    const getAgent = vi.fn(() => {
      throw new StrataError('not_found', 'no such agent');
    });
    expect(await dispatch(handlers(getAgent), 'getAgent', { agentId: 'x' }, session)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no such agent' },
    });
    expect(getAgent).toHaveBeenCalledWith({ agentId: 'x' }, session);
    expect(await dispatch(handlers(getAgent), 'listAgents', undefined, session)).toEqual({ ok: true, value: { agents: [] } });
  });

  it('never calls a handler with invalid arguments', async () => {
    const getAgent = vi.fn();
    const envelope = await dispatch(handlers(getAgent), 'getAgent', { agentId: ['x'] }, session);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'agentId' }] } });
    expect(getAgent).not.toHaveBeenCalled();
  });

  it('refuses unknown command names', async () => {
    for (const name of ['nope', 'constructor', 42, null]) {
      expect(await dispatch(handlers(vi.fn()), name, {}, session)).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    }
  });

  it('maps engine errors to contract codes', async () => {
    const fail = (e: Error) =>
      dispatch(
        handlers(() => {
          throw e;
        }),
        'getAgent',
        { agentId: 'x' },
        session,
      );
    expect(await fail(new EngineError('not_found', 'No item "x".'))).toEqual({ ok: false, error: { code: 'not_found', message: 'No item "x".' } });
    expect(await fail(new EngineError('duplicate', 'dup'))).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await fail(new EngineError('invalid', 'bad'))).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
  });

  it('turns an unexpected failure into internal and reports it', async () => {
    const report = vi.fn();
    const boom = new TypeError('boom');
    const envelope = await dispatch(
      handlers(() => {
        throw boom;
      }),
      'getAgent',
      { agentId: 'x' },
      session,
      report,
    );
    expect(envelope).toEqual({ ok: false, error: { code: 'internal', message: '"getAgent" failed: boom' } });
    expect(report).toHaveBeenCalledWith(boom, 'getAgent');
  });
});
