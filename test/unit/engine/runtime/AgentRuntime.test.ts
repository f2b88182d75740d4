import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_CONFIG } from '../../../../engine/conversation/contextConfig';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../../../support/providerValidity';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';
import type { Provider, ProviderRequest, ProviderResponse } from '../../../../engine/providers/Provider';
import { AgentRuntime, type RuntimeEvent, type RuntimeOptions } from '../../../../engine/runtime/AgentRuntime';
import type { AgentAction, Driver, ToolBox, TurnContext } from '../../../../engine/runtime/Driver';
import { DELEGATE_TOOL, ModelDriver } from '../../../../engine/runtime/ModelDriver';
import { TraceDriver, type RecordedTurn } from '../../../../engine/runtime/TraceDriver';
import { manualClock } from '../../../../engine/ports/Clock';
import { identity, newEngine, quarterTokenizer } from '../../../support/engineFixtures';

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({ id, name, arguments: JSON.stringify(args) });

function runtime(driver: Driver, over: Partial<RuntimeOptions> = {}) {
  const { engine, clock } = newEngine();
  const events: RuntimeEvent[] = [];
  const rt = new AgentRuntime({ engine, driver, tokenizer: quarterTokenizer, clock, context: { ...DEFAULT_CONTEXT_CONFIG, maxTokens: 20_000 }, onEvent: (e) => events.push(e), ...over });
  return { rt, engine, clock, events };
}

const primary = identity({ agentId: 'primary', parent: null, role: 'primary', task: 'Add refresh-token rotation to the payments API', budget: 8000 });

async function runAll(rt: AgentRuntime, limit = 200): Promise<number> {
  let n = 0;
  while (n < limit && rt.runnable().length > 0) {
    await rt.step();
    n++;
  }
  return n;
}

function expectProviderValid(rt: AgentRuntime, agentId: string): void {
  const messages = rt.conversation(agentId).manager.buildMessages({ transients: false });
  expect(checkOpenAIOrder(messages)).toEqual([]);
  expect(checkAnthropicOrder(messages)).toEqual([]);
  expect(orphanedResults(messages)).toEqual([]);
  expect(unansweredCalls(messages)).toEqual([]);
}

describe('AgentRuntime with the trace driver', () => {
  const script = new Map<string, RecordedTurn[]>([
    [
      'primary',
      [
        { text: 'Plan: one worker per module, then a review.', toolCalls: [], spawn: [{ agentId: 'worker-a', role: 'worker', task: 'Rotate tokens in src/auth/refresh.ts' }, { agentId: 'worker-b', role: 'worker', task: 'Revoke token families in src/auth/family.ts' }, { agentId: 'reviewer-1', role: 'reviewer', task: 'Review the rotation change', dependsOn: ['worker-a', 'worker-b'] }] },
        { text: 'Waiting for the workers.', toolCalls: [] },
        { text: 'All reports in; the change is complete.', toolCalls: [], done: true },
      ],
    ],
    [
      'worker-a',
      [
        { text: 'Looking for the refresh handler.', toolCalls: [call('a1', 'grep', { pattern: 'refresh' })], results: [{ callId: 'a1', content: 'src/auth/refresh.ts:12: export function refresh()', isError: false }] },
        { text: 'Running the tests.', toolCalls: [call('a2', 'run_command', { command: 'npm test' })], results: [{ callId: 'a2', content: 'FAIL tests/refresh.spec.ts: expected rotation', isError: true }], findings: [{ title: 'Rotation missing', content: 'refresh() reuses the old token', files: ['src/auth/refresh.ts'] }] },
        { text: 'We decided to rotate on every refresh. Tests pass now.', toolCalls: [], done: true },
      ],
    ],
    ['worker-b', [{ text: 'Family revocation added in src/auth/family.ts.', toolCalls: [], done: true }]],
    ['reviewer-1', [{ text: 'Reviewed: approve.', toolCalls: [], done: true }]],
  ]);

  it('[runtime-turn] [parent-report] runs a primary that spawns two workers and a reviewer that waits for both; every child reports to the primary', async () => {
    const { rt, engine, events } = runtime(new TraceDriver(script), {
      toolItems: (agent, c, outcome, at) => [{ id: `tool:${c.id}`, kind: outcome.isError ? 'failure' : 'tool_output', class: outcome.isError ? 'task_state' : 'ephemeral', source: c.name === 'run_command' ? 'test_result' : 'repository_source', content: outcome.content, agentId: agent.agentId, taskId: agent.taskId, at, files: ['src/auth/refresh.ts'] }],
    });
    rt.addAgent(primary);
    // The reviewer cannot start before both workers are done.
    const order: string[] = [];
    let guard = 0;
    for (let r = await rt.step(); r; r = await rt.step()) {
      order.push(r.agentId);
      if (++guard > 50) break;
    }
    expect(rt.finished()).toBe(true);
    for (const id of ['primary', 'worker-a', 'worker-b', 'reviewer-1']) {
      expect(rt.status(id)).toBe('done');
      expectProviderValid(rt, id);
    }
    expect(order.indexOf('reviewer-1')).toBeGreaterThan(order.lastIndexOf('worker-a'));
    expect(order.indexOf('reviewer-1')).toBeGreaterThan(order.lastIndexOf('worker-b'));
    const reports = engine.items().filter((i) => i.provenance.source === 'parent_report');
    expect(reports.map((i) => i.provenance.agentId).sort()).toEqual(['reviewer-1', 'worker-a', 'worker-b']);
    expect(reports.every((i) => i.audience === 'primary' && i.class === 'finding')).toBe(true);
    const reportA = reports.find((i) => i.provenance.agentId === 'worker-a')!;
    expect(reportA.content).toMatch(/rotate on every refresh/);
    expect(reportA.content).not.toMatch(/export function refresh\(\)/);
    expect(engine.item('tool:a2').class).toBe('task_state');
    expect(engine.items().some((i) => i.id === 'finding:worker-a:2:0')).toBe(true);
    expect(events.filter((e) => e.type === 'turn.completed')).toHaveLength(order.length);
  });

  it('[agent-end] [runtime-turn] a finished worker\'s greps leave the pool once its report is in; its failures and findings stay', async () => {
    const { rt, engine } = runtime(new TraceDriver(script), {
      toolItems: (agent, c, outcome, at) => [{ id: `tool:${c.id}`, kind: outcome.isError ? 'failure' : 'tool_output', class: outcome.isError ? 'task_state' : 'ephemeral', source: c.name === 'run_command' ? 'test_result' : 'repository_source', content: outcome.content, agentId: agent.agentId, taskId: agent.taskId, at, files: ['src/auth/refresh.ts'] }],
    });
    rt.addAgent(primary);
    const seen = new Set<string>();
    const workerDone = () => rt.agentIds().includes('worker-a') && rt.status('worker-a') === 'done';
    while (!workerDone() && (await rt.step())) for (const i of engine.items()) seen.add(i.id);
    expect(workerDone()).toBe(true);
    expect(seen).toContain('tool:a1');
    const pool = engine.items().map((i) => i.id);
    expect(pool).not.toContain('tool:a1');
    expect(engine.archived().map((i) => i.id)).toContain('tool:a1');
    expect(pool).toEqual(expect.arrayContaining(['tool:a2', 'finding:worker-a:2:0']));
    expect(engine.items().some((i) => i.provenance.source === 'parent_report' && i.provenance.agentId === 'worker-a')).toBe(true);
  });

  it('[refresh-on-limit] a provider context-limit error refreshes the agent into generation 2 and the same turn is retried, counted', async () => {
    const driver = new TraceDriver(new Map([['primary', [{ text: 'step 1', toolCalls: [] }, { text: 'step 2', toolCalls: [], contextLimit: 'prompt is too long: 210000 tokens > 200000 maximum' }, { text: 'done', toolCalls: [], done: true }]]]));
    const { rt, engine, events } = runtime(driver);
    rt.addAgent(primary);
    await runAll(rt);
    expect(rt.status('primary')).toBe('done');
    expect(rt.turns('primary')).toBe(3);
    expect(rt.limitRetries('primary')).toBe(1);
    const refreshes = events.filter((e) => e.type === 'context.refreshed');
    expect(refreshes).toEqual([expect.objectContaining({ agentId: 'primary', reason: expect.stringMatching(/prompt is too long/) })]);
    const r = refreshes[0]!;
    if (r.type !== 'context.refreshed') throw new Error('unreachable');
    expect(r.to).toBe(r.from + 1);
    const calls = rt.ledger.calls('primary');
    expect(calls.map((c) => c.retries)).toEqual([0, 1, 0]);
    // The retried turn ran in the new generation, with the same agent id.
    expect(calls[1]!.generation).toBe(r.to);
    expect(engine.identity('primary').agentId).toBe('primary');
  });

  it('[refresh-on-limit] retries are bounded: a prompt that never fits fails the agent with the provider message and commits nothing', async () => {
    const always: Driver = { kind: 'model', tools: [], act: async () => { throw new ContextLimitError('prompt is too long: 999999 tokens > 200000 maximum', 'anthropic'); } };
    const { rt } = runtime(always, { maxLimitRetries: 2 });
    rt.addAgent(primary);
    const before = JSON.stringify(rt.conversation('primary').snapshot().context);
    expect(await rt.step()).toBeUndefined();
    expect(rt.status('primary')).toBe('failed');
    expect(rt.error('primary')).toMatch(/prompt is too long/);
    expect(rt.limitRetries('primary')).toBe(2);
    expect(JSON.stringify(rt.conversation('primary').snapshot().context).replace(/"lastTurn":\d+/, '')).toBe(before.replace(/"lastTurn":\d+/, ''));
    expect(rt.ledger.calls('primary')).toEqual([]);
  });

  it('[runtime-turn] a driver failure fails only its agent; the others carry on', async () => {
    const driver: Driver = {
      kind: 'model',
      tools: [],
      act: async (c: TurnContext): Promise<AgentAction> => {
        if (c.agent.agentId === 'worker-x') throw new Error('malformed response from the provider');
        return c.turn === 1 ? { text: 'spawn', toolCalls: [], spawn: [{ agentId: 'worker-x', role: 'worker', task: 'x' }, { agentId: 'worker-y', role: 'worker', task: 'y' }] } : { text: 'ok', toolCalls: [], done: true };
      },
    };
    const { rt } = runtime(driver);
    rt.addAgent(primary);
    await runAll(rt);
    expect(rt.status('worker-x')).toBe('failed');
    expect(rt.error('worker-x')).toBe('malformed response from the provider');
    expect(rt.status('worker-y')).toBe('done');
    expect(rt.status('primary')).toBe('done');
  });
});

describe('AgentRuntime controls', () => {
  function deferredDriver() {
    let release: (a: AgentAction) => void = () => {};
    const calls: TurnContext[] = [];
    const driver: Driver = {
      kind: 'model',
      tools: [],
      act: (c) =>
        new Promise<AgentAction>((resolve, reject) => {
          calls.push(c);
          release = resolve;
          c.signal.addEventListener('abort', () => reject(c.signal.reason));
        }),
    };
    return { driver, calls, release: (a: AgentAction) => release(a) };
  }

  it('[turn-atomic] cancelling an agent mid-turn commits nothing: conversation, pool and ledger are as before', async () => {
    const d = deferredDriver();
    const { rt, engine } = runtime(d.driver);
    rt.addAgent(primary);
    const before = { conv: JSON.stringify(rt.conversation('primary').manager.groups()), items: engine.items().length };
    const turn = rt.step();
    await Promise.resolve();
    expect(rt.status('primary')).toBe('running');
    rt.cancel('primary', 'operator stop');
    expect(await turn).toBeUndefined();
    expect(rt.status('primary')).toBe('cancelled');
    expect(JSON.stringify(rt.conversation('primary').manager.groups())).toBe(before.conv);
    expect(engine.items().length).toBe(before.items);
    expect(rt.ledger.calls('primary')).toEqual([]);
    expect(await rt.step()).toBeUndefined();
    expect(() => rt.conversation('primary').append(rt.conversation('primary').beginTurn(), [{ role: 'user', content: 'still usable' }])).not.toThrow();
  });

  it('[runtime-turn] a paused agent is skipped until resumed; step runs one turn round robin', async () => {
    const driver = new TraceDriver(new Map([
      ['a', [{ text: 'a1', toolCalls: [] }, { text: 'a2', toolCalls: [], done: true }]],
      ['b', [{ text: 'b1', toolCalls: [] }, { text: 'b2', toolCalls: [], done: true }]],
    ]));
    const { rt } = runtime(driver);
    rt.addAgent(identity({ agentId: 'a', parent: null }));
    rt.addAgent(identity({ agentId: 'b', parent: null }));
    expect((await rt.step())?.agentId).toBe('a');
    expect((await rt.step())?.agentId).toBe('b');
    rt.pause('a');
    expect(rt.runnable()).toEqual(['b']);
    expect((await rt.step())?.agentId).toBe('b');
    expect(await rt.step()).toBeUndefined();
    rt.resume('a');
    expect((await rt.step())?.agentId).toBe('a');
    expect(rt.finished()).toBe(true);
  });

  it('[runtime-turn] refuses an unknown parent, an unknown dependency and a duplicate agent, changing nothing', () => {
    const { rt } = runtime(new TraceDriver(new Map()));
    rt.addAgent(primary);
    expect(() => rt.addAgent(identity({ agentId: 'w', parent: 'nobody' }))).toThrow(/parent nobody/);
    expect(() => rt.addAgent(identity({ agentId: 'w', parent: 'primary' }), ['ghost'])).toThrow(/unknown agents: ghost/);
    expect(() => rt.addAgent(primary)).toThrow(/already exists/);
    expect(rt.agentIds()).toEqual(['primary']);
  });
});

describe('AgentRuntime with the model driver', () => {
  function fakeProvider(answers: ((r: ProviderRequest) => ProviderResponse)[]): Provider & { requests: ProviderRequest[] } {
    const requests: ProviderRequest[] = [];
    return {
      name: 'fake',
      requests,
      complete: async (r) => {
        requests.push(r);
        const next = answers.shift();
        if (!next) throw new Error('no more answers');
        return next(r);
      },
    };
  }
  const usage = { input: 100, cacheRead: 900, cacheWrite: 0, output: 20 };
  const toolbox: ToolBox & { ran: string[] } = {
    ran: [],
    specs: [{ name: 'read_file', description: 'read', parameters: { type: 'object' } }],
    async call(c) {
      this.ran.push(c.name);
      return { callId: c.id, content: `contents of ${JSON.parse(c.arguments).path}`, isError: false };
    },
  };

  it('[provider-time-limit] [provider-retries-counted] the calls of one turn share the provider\'s turn limit, and every HTTP retry counts in the call\'s retries', async () => {
    const driverClock = manualClock(0);
    const provider = Object.assign(
      fakeProvider([
        () => {
          driverClock.advance(300);
          throw new ContextLimitError('fake: context limit exceeded', 'fake', 30_000, 20_000, 2);
        },
        () => ({ text: 'Reading.', toolCalls: [call('r1', 'read_file', { path: 'a.ts' })], usage, model: 'm', stopReason: 'tool_use', retries: 1 }),
        () => ({ text: 'Done.', toolCalls: [], usage, model: 'm', stopReason: 'end_turn' }),
      ]),
      { turnTimeoutMs: 1000 },
    );
    const own: ToolBox = { specs: toolbox.specs, call: async (c) => ({ callId: c.id, content: 'export const a = 1;', isError: false }) };
    const { rt } = runtime(new ModelDriver(provider, own, { clock: driverClock }), { toolbox: own });
    rt.addAgent(identity({ agentId: 'worker', parent: null, role: 'worker', task: 'Read a.ts', budget: 8000 }));
    await runAll(rt);
    // The refreshed turn's repeated call gets what the first left; the next turn the whole limit.
    expect(provider.requests.map((r) => r.timeBudgetMs)).toEqual([1000, 700, 1000]);
    expect(rt.ledger.calls('worker').map((c) => [c.retries, c.providerRetries])).toEqual([
      [3, 2],
      [0, 0],
    ]);
  });

  it('[request-layers] [runtime-turn] tool calls run through the toolbox, delegate spawns a child, usage is the provider\'s and the request carries the cache layers', async () => {
    const provider = fakeProvider([
      () => ({ text: 'Delegating and reading.', toolCalls: [call('d1', 'delegate', { role: 'worker', task: 'Fix the parser' }), call('r1', 'read_file', { path: 'src/parser.ts' })], usage, model: 'm', stopReason: 'tool_use' }),
      () => ({ text: 'Parser fixed.', toolCalls: [], usage, model: 'm', stopReason: 'end_turn' }),
      () => ({ text: 'All done.', toolCalls: [], usage, model: 'm', stopReason: 'end_turn' }),
    ]);
    const { rt } = runtime(new ModelDriver(provider, toolbox), { toolbox });
    rt.addAgent(primary);
    await runAll(rt);
    expect(toolbox.ran).toEqual(['read_file']);
    expect(rt.agentIds()).toEqual(['primary', 'worker-1']);
    expect(rt.status('worker-1')).toBe('done');
    expect(rt.status('primary')).toBe('done');
    const first = provider.requests[0]!;
    expect(first.tools.map((t) => t.name)).toContain(DELEGATE_TOOL.name);
    expect(provider.requests[1]!.tools.map((t) => t.name)).not.toContain(DELEGATE_TOOL.name);
    expect(first.system[0]).toMatchObject({ cacheBreakpoint: true, text: expect.stringContaining('You are primary') });
    expect(first.system.filter((b) => b.cacheBreakpoint).length + (first.historyBreakpoint ? 1 : 0)).toBeLessThanOrEqual(4);
    expect(first.messages[0]).toMatchObject({ role: 'user', content: `Task: ${primary.task}` });
    expect(first.messages.some((m) => m.role === 'system')).toBe(false);
    expect(first.cacheKey).toBe('primary');
    const calls = rt.ledger.calls('primary');
    expect(calls[0]).toMatchObject({ usage, modeled: false, hitRate: 0.9 });
    expectProviderValid(rt, 'primary');
    const group = rt.conversation('primary').manager.groups()[1]!;
    expect(group.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
    expect(group.messages[1]).toMatchObject({ content: expect.stringMatching(/started worker-1/) });
  });

  it('[runtime-turn] [prefix-reuse-def] without provider usage the call is priced by the cache model and marked modeled; prefix reuse grows across turns', async () => {
    const driver = new TraceDriver(new Map([['primary', [{ text: 'one', toolCalls: [] }, { text: 'two', toolCalls: [] }, { text: 'three', toolCalls: [], done: true }]]]));
    const priced: number[] = [];
    const { rt } = runtime(driver, { priceCall: (_a, _r, at, out) => (priced.push(at), { input: 10, cacheRead: 30, cacheWrite: 0, output: out }) });
    rt.addAgent(primary);
    await runAll(rt);
    const calls = rt.ledger.calls('primary');
    expect(priced).toHaveLength(3);
    expect(calls.every((c) => c.modeled && c.usage.cacheRead === 30)).toBe(true);
    expect(calls[0]!.prefixReuse).toBe(0);
    expect(calls[2]!.prefixReuse).toBeGreaterThan(0.5);
    // The bytes behind each figure travel with it ([prefix-reuse-def]: reused / prompt bytes), so views weight reuse by bytes.
    expect(calls[0]!.reuseBytes.reused).toBe(0);
    for (const c of calls) expect(c.prefixReuse).toBe(c.reuseBytes.reused / c.reuseBytes.prompt);
    expect(rt.ledger.totals('primary')).toMatchObject({ calls: 3, input: 30, cacheRead: 90 });
  });
});
