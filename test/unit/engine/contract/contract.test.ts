import { describe, expect, it } from 'vitest';
import { AgentDtoSchema, commandNames, Commands, eventNames, isCommandName, StrataError } from '../../../../engine/contract';

const agent = {
  agentId: 'a',
  parent: null,
  role: 'worker',
  task: 't',
  model: 'm',
  status: 'running',
  generation: 1,
  tokens: 5,
  budget: 10,
  usage: { input: 1, cacheRead: 2, cacheWrite: 3, output: 4 },
  cacheHitRate: 0.5,
  revision: 0,
  updatedAt: '2026-11-29T00:00:00.000Z',
  boundary: { kind: 'refresh', reason: 'provider context-limit error: prompt is too long: 203928 tokens > 200000 maximum' },
  lastError: { message: 'worker-store failed: provider answered 500', at: '2026-01-01T00:00:00.000Z', seq: 12 },
};

describe('contract', () => {
  it('lists the commands and events of the control room', () => {
    expect(commandNames).toEqual([
      'health',
      'listAgents',
      'getAgent',
      'subscribe',
      'listGenerations',
      'getGeneration',
      'diffGenerations',
      'pin',
      'unpin',
      'remove',
      'verify',
      'promote',
      'previewItemChange',
      'rebuild',
      'restoreGeneration',
      'refresh',
      'listMemory',
      'getMemory',
      'promoteToMemory',
      'verifyMemory',
      'retireMemory',
      'unverifyMemory',
      'editMemory',
      'addConstraint',
      'purgeMemory',
      'getConversation',
      'listSkills',
      'startRun',
      'pauseRun',
      'resumeRun',
      'stepRun',
      'stopRun',
      'listRuns',
      'controlAgent',
      'getUsage',
      'getProviderSettings',
      'importTrace',
      'importTraceContent',
      'listTraces',
      'startComparison',
      'getComparison',
      'listComparisons',
      'cancelComparison',
      'removeTrace',
      'listSessions',
      'attachSession',
      'detachSession',
      'listAttached',
      'getSession',
      'getGateway',
      'startGateway',
      'stopGateway',
      'listGatewaySessions',
      'getGatewaySession',
      'setGatewayMode',
      'gatewayControl',
      'getGatewayRequest',
    ]);
    expect(eventNames).toEqual(['agent.updated', 'log', 'generation.started', 'item.changed', 'memory.changed', 'conversation.changed', 'run.changed', 'run.progress', 'turn.completed', 'generation.created', 'context.refreshed', 'usage.recorded', 'trace.imported', 'trace.removed', 'comparison.progress', 'session.updated', 'session.detached',
      'gateway.status',
      'gateway.session',
      'gateway.call', 'app.command']);
  });

  it('refuses unknown keys in every command argument object', () => {
    for (const name of commandNames) {
      expect(Commands[name].args.safeParse({ unexpected: 1 }).success, name).toBe(false);
    }
  });

  it('recognises only its own command names (no prototype keys)', () => {
    expect(isCommandName('health')).toBe(true);
    expect(isCommandName('toString')).toBe(false);
    expect(isCommandName('__proto__')).toBe(false);
    expect(isCommandName(3)).toBe(false);
  });

  it('keeps DTOs structured-cloneable and JSON-safe', () => {
    const parsed = AgentDtoSchema.parse(agent);
    expect(structuredClone(parsed)).toEqual(parsed);
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
  });

  it('rejects agent DTOs outside their invariants', () => {
    expect(AgentDtoSchema.safeParse({ ...agent, generation: 0 }).success).toBe(false);
    expect(AgentDtoSchema.safeParse({ ...agent, cacheHitRate: 1.5 }).success).toBe(false);
    expect(AgentDtoSchema.safeParse({ ...agent, status: 'sleeping' }).success).toBe(false);
  });

  it('round-trips a StrataError through its DTO', () => {
    const err = new StrataError('invalid_args', 'bad', [{ path: 'agentId', message: 'required' }]);
    const back = StrataError.fromDto(structuredClone(err.toDto()));
    expect(back).toBeInstanceOf(StrataError);
    expect([back.code, back.message, back.issues]).toEqual(['invalid_args', 'bad', [{ path: 'agentId', message: 'required' }]]);
    expect(new StrataError('not_found', 'x').toDto()).toEqual({ code: 'not_found', message: 'x' });
  });
});
