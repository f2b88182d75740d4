import { generationTokens } from '../../engine/generations/Generation';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandName, Commands, type StrataEvent } from '../../engine/contract';
import { Host, type HostOptions } from '../../engine/host';
import { generateDemoRun } from '../../engine/demo/generateDemoRun';
import { DEMO_RESTART_MS } from '../../engine/host/demoRunSpec';
import { RECENT_FULL_GENERATIONS } from '../../engine/generations/boundedHistory';
import { BATCH_INTERVAL_MS } from '../../engine/host/EventBatcher';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { dumpCatalog } from '../support/catalogDump';
import { latestSchemaVersion } from '../../engine/node/catalog/migrations';
import { demoFiles } from '../support/demoFiles';
import { demoDir, tempDir } from '../support/tempDir';
import { quarterTokenizer } from '../support/engineFixtures';
import { writeSyntheticTrace } from '../support/traceFixtures';
import { startAnthropicLoopback } from '../support/loopback';

const script = generateDemoRun(demoFiles, 1);
const TOTAL_TURNS = [...script.scripts.values()].reduce((n, turns) => n + turns.length, 0);

describe('Host over a temp-dir catalog with the demo workspace', () => {
  let tmp: ReturnType<typeof tempDir>;
  let options: HostOptions;
  let host: Host;
  let scheduler: ReturnType<typeof manualScheduler>;

  beforeEach(() => {
    tmp = tempDir();
    scheduler = manualScheduler();
    options = {
      catalogPath: join(tmp.dir, 'catalog.sqlite'),
      workspaceName: 'demo',
      version: '9.9.9',
      demoDir,
      demoTickMs: 100,
      clock: manualClock(Date.parse('2026-11-29T12:00:00Z')),
      scheduler,
      tokenizer: quarterTokenizer,
    };
    host = Host.open(options);
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });

  const call = async <K extends CommandName>(name: K, args: unknown, events: StrataEvent[] = []) => {
    const conn = host.connect((e) => events.push(e));
    const envelope = await conn.call(name, args);
    return { envelope, conn };
  };
  const value = async <T,>(name: CommandName, args: unknown): Promise<T> => {
    const { envelope } = await call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value as T;
  };
  /** One timer tick: the run takes a turn (and batched events flush); resolves once it committed. */
  const tick = async (times = 1) => {
    for (let i = 0; i < times; i++) {
      scheduler.tick();
      await host.runs.current?.idle();
    }
  };

  it('seeds the demo run with its primary and pinned items on first run and reports health', async () => {
    expect(await value('health', {})).toMatchObject({ ok: true, version: '9.9.9', agents: 1, catalog: { journalMode: 'wal', schemaVersion: latestSchemaVersion } });
    expect((await value<{ agents: { agentId: string; status: string }[] }>('listAgents', {})).agents).toEqual([expect.objectContaining({ agentId: 'primary', status: 'waiting' })]);
    expect((await value<{ runs: unknown[] }>('listRuns', {})).runs).toEqual([expect.objectContaining({ runId: 'demo', driver: 'trace', status: 'running', turns: 0, agents: 1, tickMs: 100 })]);
    expect(host.engine.items().filter((i) => i.pinned).map((i) => i.id).sort()).toEqual(['constraint:no-downtime', 'constraint:no-token-logs']);
  });

  it('answers every command with a value its result schema accepts', async () => {
    // The gateway's commands need a session: this host's gateway forwards to a loopback Anthropic server.
    const upstream = await startAnthropicLoopback();
    host.close();
    host = Host.open({ ...options, gateway: { upstreams: { anthropic: upstream.url } } });
    const viaGateway = async () => {
      const origin = host.gateway.status().origin!;
      const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'read a.ts' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const a = 1;' }] }] };
      const res = await fetch(`${origin}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      await res.text();
    };
    const gatewaySession = async () => {
      await viaGateway();
      const sessions = host.gateway.listSessions();
      expect(sessions.length).toBeGreaterThan(0);
      return sessions[0]!;
    };
    await tick(12);
    const toolItem = host.engine.items().find((i) => i.id.startsWith('tool:'))!.id;
    const memId = () => host.memory.list().find((r) => r.provenance.itemId === 'objective')?.id;
    const samples: { [K in CommandName]: unknown } = {
      health: {},
      listAgents: {},
      getAgent: { agentId: 'primary' },
      subscribe: { events: ['log'] },
      listGenerations: { agentId: 'primary' },
      getGeneration: { agentId: 'primary' },
      diffGenerations: { agentId: 'primary', from: 1, to: 1 },
      pin: { itemId: 'acceptance' },
      unpin: { itemId: 'acceptance' },
      verify: { itemId: 'objective' },
      promote: { itemId: toolItem, target: 'pool' },
      remove: { itemId: toolItem },
      previewItemChange: { itemId: 'acceptance', change: 'remove' },
      rebuild: { agentId: 'primary' },
      restoreGeneration: { agentId: 'primary', number: 1 },
      refresh: { agentId: 'primary' },
      listMemory: {},
      promoteToMemory: { itemId: 'objective' },
      getMemory: undefined,
      verifyMemory: undefined,
      unverifyMemory: undefined,
      editMemory: undefined,
      retireMemory: undefined,
      addConstraint: { agentId: 'primary', text: 'Keep the public API unchanged.' },
      purgeMemory: { confirm: 'purge project memory' },
      getConversation: { agentId: 'primary' },
      listSkills: {},
      listRuns: {},
      controlAgent: { agentId: 'primary', action: 'pause' },
      getUsage: { agentId: 'primary' },
      getProviderSettings: {},
      pauseRun: { runId: 'demo' },
      resumeRun: { runId: 'demo' },
      stepRun: { runId: 'demo' },
      stopRun: { runId: 'demo' },
      startRun: { driver: 'trace', tickMs: 0 },
      importTrace: { path: writeSyntheticTrace(tmp.dir) },
      importTraceContent: { name: 'session.json', content: readFileSync(writeSyntheticTrace(tmp.dir, 'upload.json', ' (uploaded)'), 'utf8') },
      listTraces: {},
      startComparison: undefined,
      getComparison: { comparisonId: 'cmp-1' },
      listComparisons: {},
      cancelComparison: undefined,
      removeTrace: undefined,
      listSessions: {},
      attachSession: { path: join(tmp.dir, 'session.jsonl') },
      listAttached: {},
      getSession: { sessionId: 'ses-1' },
      detachSession: { sessionId: 'ses-1' },
      getGateway: {},
      startGateway: { port: 0 },
      listGatewaySessions: {},
      getGatewaySession: undefined,
      setGatewayMode: undefined,
      gatewayControl: undefined,
      getGatewayRequest: undefined,
      stopGateway: {},
    };
    const late: Partial<Record<CommandName, () => unknown>> = {
      getMemory: () => ({ id: memId() }),
      verifyMemory: () => ({ id: memId(), revision: 1 }),
      unverifyMemory: () => ({ id: memId(), revision: 2 }),
      editMemory: () => ({ id: memId(), revision: 3, body: 'Edited in the control room.' }),
      retireMemory: () => ({ id: memId(), revision: 4 }),
      startComparison: () => ({ traceIds: host.catalog.listTraces().map((t) => t.id), strategies: ['variable'], budget: 32_000 }),
      cancelComparison: () => ({ comparisonId: host.comparisons.start({ traceIds: [host.catalog.listTraces()[0]!.id], strategies: ['summary'], budgets: [32_000, 64_000] }).comparisonId }),
      // A trace no running comparison replays.
      getGatewaySession: async () => ({ sessionId: (await gatewaySession()).id }),
      setGatewayMode: async () => ({ sessionId: (await gatewaySession()).id, mode: 'manage' }),
      gatewayControl: async () => {
        const sessionId = (await gatewaySession()).id;
        return { sessionId, threadId: host.gateway.session(sessionId).threads[0]!.id, itemKey: 'toolu_1', action: 'pin' };
      },
      // The session is managed now: its next call keeps the original and the rewritten request.
      getGatewayRequest: async () => {
        const sessionId = (await gatewaySession()).id;
        const calls = host.gateway.session(sessionId).threads.flatMap((t) => t.calls).filter((c) => c.mode === 'manage');
        expect(calls.length).toBeGreaterThan(0);
        return { callId: calls.at(-1)!.id };
      },
      removeTrace: async () => ({ traceId: (await call('importTraceContent', { name: 'removed.json', content: readFileSync(writeSyntheticTrace(tmp.dir, 'removed.json', ' (removed)'), 'utf8') })).envelope.ok ? host.catalog.listTraces()[0]!.id : '' }),
    };
    writeFileSync(join(tmp.dir, 'session.jsonl'), '');
    for (const name of Object.keys(samples) as CommandName[]) {
      const { envelope } = await call(name, late[name] ? await late[name]!() : samples[name]);
      expect(envelope.ok, `${name}: ${JSON.stringify(envelope)}`).toBe(true);
      if (envelope.ok) expect(() => Commands[name].result.parse(envelope.value)).not.toThrow();
    }
    await upstream.close();
  });

  it('plays one turn per tick and pushes it only to subscribed sessions', async () => {
    const logOnly: StrataEvent[] = [];
    const both: StrataEvent[] = [];
    const silent: StrataEvent[] = [];
    await call('subscribe', { events: ['log'] }, logOnly);
    await call('subscribe', { events: ['agent.updated', 'log'] }, both);
    await call('listAgents', {}, silent);

    await tick();
    const updates = both.filter((e) => e.name === 'agent.updated').map((e) => (e.name === 'agent.updated' ? e.payload.agent : null));
    // Running as the turn starts, then the committed record with the turn's generation, tokens and usage.
    expect(updates[0]).toMatchObject({ agentId: 'primary', status: 'running' });
    const committed = updates.filter((a) => a?.agentId === 'primary').at(-1)!;
    // Between its turns a started agent stays running for the operator.
    expect(committed).toMatchObject({ agentId: 'primary', status: 'running', generation: 1, updatedAt: '2026-11-29T12:00:00.000Z' });
    expect(committed.tokens).toBe(generationTokens(host.engine.generation('primary', 1)));
    expect(committed.usage.cacheWrite + committed.usage.input).toBeGreaterThan(0);
    expect(logOnly.length).toBeGreaterThan(0);
    expect(logOnly.every((e) => e.name === 'log')).toBe(true);
    expect(silent).toEqual([]);
    const detail = await value<{ recentLog: { message: string }[] }>('getAgent', { agentId: 'primary' });
    expect(detail.recentLog.map((l) => l.message)).toContainEqual(expect.stringMatching(/^Turn 1 · gen 1 · /));
  });

  it('[event-batching] batches the runtime events: one message per kind per interval, whatever the number of turns', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['turn.completed', 'usage.recorded'] }, events);
    // 40 turns without a timer tick: nothing is sent until the batch interval fires.
    for (let i = 0; i < 40; i++) await host.runs.current!.step();
    expect(events).toEqual([]);
    host.runs.flush();
    expect(events.map((e) => e.name).sort()).toEqual(['turn.completed', 'usage.recorded']);
    const turns = events.find((e) => e.name === 'turn.completed');
    expect(turns?.name === 'turn.completed' && turns.payload.turns).toHaveLength(40);
    const usage = events.find((e) => e.name === 'usage.recorded');
    expect(usage?.name === 'usage.recorded' && usage.payload.calls.every((c) => c.modeled)).toBe(true);
    expect(BATCH_INTERVAL_MS).toBeGreaterThanOrEqual(50);
  });

  it('accumulates every call into the agent usage and its hit rate; getUsage lists the calls', async () => {
    await tick(60);
    const usage = await value<{ calls: { usage: { input: number; cacheRead: number; cacheWrite: number; output: number }; hitRate: number; prefixReuse: number; modeled: boolean }[]; totals: { calls: number; cacheRead: number; input: number; cacheWrite: number; hitRate: number } }>('getUsage', { agentId: 'primary' });
    const agent = (await value<{ agent: { usage: { input: number; cacheRead: number; cacheWrite: number }; cacheHitRate: number } }>('getAgent', { agentId: 'primary' })).agent;
    expect(usage.totals.calls).toBe(host.runs.current!.runtime.turns('primary'));
    expect(agent.usage).toMatchObject({ input: usage.totals.input, cacheRead: usage.totals.cacheRead, cacheWrite: usage.totals.cacheWrite });
    expect(agent.cacheHitRate).toBeCloseTo(usage.totals.hitRate, 10);
    expect(usage.totals.hitRate).toBeGreaterThan(0.5);
    expect(usage.calls.every((c) => c.modeled && c.hitRate >= 0 && c.hitRate <= 1 && c.prefixReuse >= 0 && c.prefixReuse <= 1)).toBe(true);
    expect(usage.calls.slice(1).some((c) => c.prefixReuse > 0.5)).toBe(true);
  });

  it(`plays the whole demo (${TOTAL_TURNS} turns), finishes, then starts over after a rest`, async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['run.changed', 'log', 'context.refreshed'] }, events);
    for (let i = 0; i < TOTAL_TURNS + 5 && host.runs.current!.status === 'running'; i++) await tick();
    expect(host.runs.current!.status).toBe('finished');
    expect(host.runs.current!.turns).toBe(TOTAL_TURNS);
    expect(events.some((e) => e.name === 'run.changed' && e.payload.run.status === 'finished')).toBe(true);
    expect(events.filter((e) => e.name === 'context.refreshed').flatMap((e) => (e.name === 'context.refreshed' ? e.payload.refreshes : []))).toHaveLength(2);
    const agents = (await value<{ agents: { status: string }[] }>('listAgents', {})).agents;
    expect(agents).toHaveLength(script.scripts.size);
    expect(agents.every((a) => a.status === 'done')).toBe(true);

    events.length = 0;
    expect(DEMO_RESTART_MS).toBeGreaterThan(0);
    scheduler.tick();
    expect(events.some((e) => e.name === 'log' && e.payload.entry.message === 'Demo run restarted')).toBe(true);
    expect((await value<{ agents: unknown[] }>('listAgents', {})).agents).toHaveLength(1);
    expect(host.runs.current!.dto()).toMatchObject({ runId: 'demo', status: 'running', turns: 0 });
  }, 60_000);

  it('continues where it stopped after a reopen, replaying quietly, and never seeds twice', async () => {
    await tick(25);
    const agentsBefore = (await value<{ agents: { agentId: string; revision: number }[] }>('listAgents', {})).agents;
    const logBefore = host.catalog.recentLog(1000).length;
    host.close();
    host = Host.open(options);
    await host.runs.ready();
    expect(host.runs.current!.turns).toBe(25);
    expect((await value<{ agents: { agentId: string; revision: number }[] }>('listAgents', {})).agents).toEqual(agentsBefore);
    expect(host.catalog.recentLog(1000)).toHaveLength(logBefore);
    await tick();
    expect(host.runs.current!.turns).toBe(26);
    expect(host.catalog.recentLog(1000).length).toBeGreaterThan(logBefore);
  });

  it('runs: a second start is a conflict; pause stops the ticking; step takes exactly one turn; stop then start begins again', async () => {
    expect((await call('startRun', { driver: 'trace' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await value('pauseRun', { runId: 'demo' })).toMatchObject({ run: { status: 'paused' } });
    await tick(3);
    expect(host.runs.current!.turns).toBe(0);
    expect(await value('stepRun', { runId: 'demo' })).toMatchObject({ run: { status: 'paused', turns: 1 } });
    // One turn of a named agent; an agent that cannot run now is a conflict.
    await value('stepRun', { runId: 'demo' });
    await value('stepRun', { runId: 'demo' });
    const before = host.runs.current!.runtime.turns('primary');
    expect(await value('stepRun', { runId: 'demo', agentId: 'primary' })).toMatchObject({ run: { turns: 4 } });
    expect(host.runs.current!.runtime.turns('primary')).toBe(before + 1);
    expect((await call('stepRun', { runId: 'demo', agentId: 'reviewer-1' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await value('stopRun', { runId: 'demo' })).toMatchObject({ run: { status: 'stopped', reason: 'stopped by an operator' } });
    expect((await call('stepRun', { runId: 'demo' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await value('startRun', { driver: 'trace', tickMs: 0 })).toMatchObject({ run: { runId: 'demo', status: 'running', turns: 0 } });
    expect((await value<{ runs: { status: string }[] }>('listRuns', {})).runs.map((r) => r.status)).toEqual(['running', 'stopped']);
    expect((await call('pauseRun', { runId: 'nope' })).envelope).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await call('startRun', { driver: 'model', provider: 'anthropic', model: 'claude-sonnet-4-5', task: 'x' })).envelope).toMatchObject({ ok: false });
  });

  it('[run-follow] a run that starts over announces its agents at revisions above every one the run before announced', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['agent.updated', 'run.changed'] }, events);
    await tick(20);
    const before = Math.max(...events.flatMap((e) => (e.name === 'agent.updated' ? [e.payload.agent.revision] : [])));
    await value('stopRun', { runId: 'demo' });
    events.length = 0;
    await value('startRun', { driver: 'trace', tickMs: 0 });
    await tick(6);
    const after = events.flatMap((e) => (e.name === 'agent.updated' ? [e.payload.agent] : []));
    expect(after.map((a) => a.agentId)).toContain('primary');
    expect(Math.min(...after.map((a) => a.revision))).toBeGreaterThan(before);
    // The floor outlives a reopen: the demo starting over after it still numbers on.
    const stored = Math.max(...host.catalog.listAgents().map((a) => a.revision));
    host.close();
    host = Host.open(options);
    await host.runs.ready();
    await value('stopRun', { runId: 'demo' });
    await value('startRun', { driver: 'trace', tickMs: 0 });
    expect(host.catalog.getAgent('primary')!.revision).toBeGreaterThan(stored);
  });

  it('[run-progress] the active run\'s turn and agent counts reach the views as they move, batched, and stop once it ended', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['run.progress', 'run.changed'] }, events);
    await tick(6);
    host.runs.flush();
    events.length = 0;
    // Eight turns between two flushes: one message, made at the flush, with the counts then.
    for (let i = 0; i < 8; i++) await value('stepRun', { runId: 'demo' });
    host.runs.flush();
    const progress = events.flatMap((e) => (e.name === 'run.progress' ? [e.payload.run] : []));
    expect(progress).toHaveLength(1);
    expect(progress.at(-1)).toMatchObject({ runId: 'demo', status: 'running', turns: host.runs.current!.turns, agents: host.runs.current!.dto().agents });
    expect(progress.at(-1)!.agents).toBeGreaterThan(1);
    await value('stopRun', { runId: 'demo' });
    events.length = 0;
    scheduler.tick();
    host.runs.flush();
    expect(events.filter((e) => e.name === 'run.progress')).toEqual([]);
  });

  it('[run-resume] a paused run resumes where it paused and ticks again; resume on a run that is not paused is a conflict', async () => {
    await tick(3);
    expect((await call('resumeRun', { runId: 'demo' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict', message: 'Run demo is running; only a paused run resumes.' } });
    await value('pauseRun', { runId: 'demo' });
    await tick(3);
    expect(host.runs.current!.turns).toBe(3);
    expect(await value('resumeRun', { runId: 'demo' })).toMatchObject({ run: { status: 'running', turns: 3 } });
    await tick(2);
    expect(host.runs.current!.turns).toBe(5);
    await value('stopRun', { runId: 'demo' });
    expect((await call('resumeRun', { runId: 'demo' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await call('resumeRun', { runId: 'nope' })).envelope).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('[run-resume] an agent paused by an operator is listed as paused, and as running again once resumed', async () => {
    await tick(6);
    await value('controlAgent', { agentId: 'primary', action: 'pause' });
    expect(host.catalog.getAgent('primary')).toMatchObject({ status: 'paused' });
    await value('controlAgent', { agentId: 'primary', action: 'resume' });
    expect(host.catalog.getAgent('primary')).toMatchObject({ status: 'running' });
  });

  it('[runtime-turn] controlAgent pauses, resumes and cancels one agent of the run; a control that does not apply is a conflict', async () => {
    await tick(4);
    const run = host.runs.current!.runtime;
    expect(await value('controlAgent', { agentId: 'worker-store', action: 'pause' })).toEqual({ agentId: 'worker-store', status: 'paused' });
    expect(run.runnable()).not.toContain('worker-store');
    const turns = run.turns('worker-store');
    await tick(12);
    expect(run.turns('worker-store')).toBe(turns);
    expect((await call('controlAgent', { agentId: 'worker-store', action: 'pause' })).envelope).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await value('controlAgent', { agentId: 'worker-store', action: 'resume' })).toEqual({ agentId: 'worker-store', status: 'waiting' });
    await tick(12);
    expect(run.turns('worker-store')).toBeGreaterThan(turns);
    expect(await value('controlAgent', { agentId: 'probe-callers', action: 'cancel' })).toEqual({ agentId: 'probe-callers', status: 'cancelled' });
    expect(host.catalog.getAgent('probe-callers')).toMatchObject({ status: 'failed' });
    expect(host.catalog.recentLog(50, 'probe-callers').map((l) => l.message)).toContainEqual('probe-callers cancelled: cancelled by an operator');
    expect((await call('controlAgent', { agentId: 'ghost', action: 'pause' })).envelope).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reports provider settings without any key', async () => {
    const settings = await value<{ providers: { provider: string; keyPresent: boolean }[] }>('getProviderSettings', {});
    expect(settings.providers.map((p) => p.provider).sort()).toEqual(['anthropic', 'openai']);
    expect(JSON.stringify(settings)).not.toMatch(/sk-/);
  });

  it.each([
    ['getAgent', undefined, 'invalid_args'],
    ['getAgent', {}, 'invalid_args'],
    ['getAgent', { agentId: '' }, 'invalid_args'],
    ['getAgent', { agentId: 42 }, 'invalid_args'],
    ['getAgent', { agentId: 'primary', extra: true }, 'invalid_args'],
    ['getAgent', 'primary', 'invalid_args'],
    ['subscribe', { events: ['nope'] }, 'invalid_args'],
    ['health', { verbose: true }, 'invalid_args'],
    ['dropTables', {}, 'unknown_command'],
    ['__proto__', {}, 'unknown_command'],
    ['getAgent', { agentId: 'ghost' }, 'not_found'],
    ['startRun', { driver: 'model', provider: 'x', model: 'm', task: 't' }, 'invalid_args'],
    ['startRun', { driver: 'trace', tickMs: -1 }, 'invalid_args'],
    ['getUsage', { agentId: 'primary', limit: 0 }, 'invalid_args'],
    ['getUsage', { agentId: 'ghost' }, 'not_found'],
  ])('refuses %s(%j) with %s and changes nothing', async (name, args, code) => {
    const before = dumpCatalog(options.catalogPath);
    const { envelope } = await call(name as CommandName, args);
    expect(envelope).toMatchObject({ ok: false, error: { code } });
    if (!envelope.ok) expect(envelope.error.message.length).toBeGreaterThan(10);
    expect(dumpCatalog(options.catalogPath)).toEqual(before);
  });

  it('says where invalid arguments are wrong', async () => {
    const { envelope } = await call('getAgent', { agentId: 7 });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'agentId' }] } });
    if (!envelope.ok) expect(envelope.error.message).toMatch(/getAgent.*agentId/);
  });

  it('refuses calls after close with unavailable', async () => {
    const conn = host.connect(() => {});
    host.close();
    expect(await conn.call('health', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('stops its timers on close', () => {
    expect(scheduler.active()).toBeGreaterThan(0);
    host.close();
    expect(scheduler.active()).toBe(0);
  });
});

describe('Host: the demo agents are built by the real engine', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  let options: HostOptions;
  beforeEach(() => {
    tmp = tempDir();
    options = { catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'demo', version: '1', demoDir, scheduler: manualScheduler(), tokenizer: quarterTokenizer };
    host = Host.open(options);
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });
  const call = (name: CommandName, args: unknown, events: StrataEvent[] = []) => host.connect((e) => events.push(e)).call(name, args);
  const play = async (n: number) => {
    for (let i = 0; i < n; i++) await host.stepDemo();
  };
  const value = async <T,>(name: CommandName, args: unknown): Promise<T> => {
    const r = await call(name, args);
    if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r)}`);
    return r.value as T;
  };

  it('gives the primary a generation with the task items in L1 and the pinned constraints', async () => {
    await play(1);
    const g = await call('getGeneration', { agentId: 'primary' });
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    const v = g.value as { number: number; included: { item: { id: string }; layer: string }[]; prompt: { L0: string; L1: string } | null };
    expect(v.number).toBe(1);
    expect(v.included.filter((e) => e.layer === 'L1').map((e) => e.item.id)).toEqual(expect.arrayContaining(['acceptance', 'constraint:no-token-logs', 'constraint:no-downtime', 'objective']));
    expect(v.prompt?.L1).toContain('Never log token values');
  });

  it('[refresh-on-limit] refreshes an agent on the recorded context-limit error, logs the refresh line and the agent carries on', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['generation.started', 'log'] }, events);
    const refreshed: string[] = [];
    host.runs.current!.runtime.agentIds();
    for (let i = 0; i < TOTAL_TURNS && refreshed.length === 0; i++) {
      await host.stepDemo();
      const run = host.runs.current!.runtime;
      for (const id of run.agentIds()) if (run.limitRetries(id) > 0) refreshed.push(id);
    }
    const agentId = refreshed[0]!;
    const started = events.filter((e) => e.name === 'generation.started' && e.payload.agentId === agentId && e.payload.previous !== null);
    expect(started.at(-1)).toMatchObject({ payload: { boundary: { kind: 'refresh' }, text: expect.stringMatching(/^Context refreshed · Generation \d+ → \d+ · Reason: provider context-limit error: prompt is too long/) } });
    expect(events.some((e) => e.name === 'log' && e.payload.entry.message.startsWith('Context refreshed · Generation'))).toBe(true);
    expect(host.runs.current!.runtime.status(agentId)).not.toBe('failed');
  });

  it('restores the engine after a reopen by replaying the turns already played', async () => {
    await play(40);
    const agents = host.runs.current!.runtime.agentIds();
    const before = agents.map((id) => host.engine.generations(id).map((g) => [g.number, generationTokens(g), g.prefixHash]));
    host.close();
    host = Host.open(options);
    await host.runs.ready();
    expect(agents.map((id) => host.engine.generations(id).map((g) => [g.number, generationTokens(g), g.prefixHash]))).toEqual(before);
  });

  it('pins, verifies, rebuilds and refreshes through the contract', async () => {
    await play(1);
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['item.changed', 'generation.started', 'agent.updated'] }, events);
    expect(await call('pin', { itemId: 'acceptance' })).toMatchObject({ ok: true, value: { item: { id: 'acceptance', pinned: true } } });
    expect(await call('verify', { itemId: 'objective' })).toMatchObject({ ok: true, value: { item: { provenance: { verified: true } } } });
    const rebuilt = await call('rebuild', { agentId: 'primary' });
    expect(rebuilt).toMatchObject({ ok: true, value: { generation: { number: 2, boundary: { kind: 'rebuild', reason: 'manual rebuild by an operator' } } } });
    const refreshed = await call('refresh', { agentId: 'primary', reason: 'operator asked' });
    expect(refreshed).toMatchObject({ ok: true, value: { from: 2, to: 3, text: 'Context refreshed · Generation 2 → 3 · Reason: operator asked' } });
    expect(events.filter((e) => e.name === 'item.changed').map((e) => e.name === 'item.changed' && e.payload.change)).toEqual(expect.arrayContaining(['pinned', 'verified']));
    expect(events.filter((e) => e.name === 'agent.updated').at(-1)).toMatchObject({ payload: { agent: { agentId: 'primary', generation: 3 } } });
    const diff = await call('diffGenerations', { agentId: 'primary', from: 1, to: 3 });
    expect(diff).toMatchObject({ ok: true, value: { from: 1, to: 3, reason: 'operator asked' } });
  });

  it('[change-preview] previewItemChange names the agents a remove would rebuild and what their cache loses, and changes nothing', async () => {
    await play(10);
    const built = host.engine.agentIds().filter((id) => host.engine.currentGeneration(id) > 0);
    expect(built.length).toBeGreaterThan(1);
    const before = built.map((id) => host.engine.currentGeneration(id));
    const r = await value<{ agents: { agentId: string; layer: string | null; when: string; promptTokens: number; lostTokens: number }[] }>('previewItemChange', { itemId: 'acceptance', change: 'remove' });
    const holders = built.filter((id) => host.engine.generation(id, host.engine.currentGeneration(id)).included.some((e) => e.item.id === 'acceptance'));
    expect(r.agents.map((a) => a.agentId).sort()).toEqual(holders.sort());
    for (const a of r.agents) {
      expect(a).toMatchObject({ layer: 'L1', when: 'next build' });
      expect(a.lostTokens).toBeGreaterThan(0);
      expect(a.lostTokens).toBeLessThan(a.promptTokens);
    }
    expect(host.engine.hasItem('acceptance')).toBe(true);
    expect(built.map((id) => host.engine.currentGeneration(id))).toEqual(before);
    expect(await call('previewItemChange', { itemId: 'ghost', change: 'verify' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('[restore-generation] a removed item shows as absent from the pool, and restoring its generation brings it back in a new one', async () => {
    await play(2);
    const g1 = await value<{ number: number; included: { item: { id: string } }[]; absent?: string[] }>('getGeneration', { agentId: 'primary' });
    expect(g1.absent).toBeUndefined();
    const itemId = g1.included.map((e) => e.item.id).find((id) => id.startsWith('tool:'))!;
    expect((await call('remove', { itemId })).ok).toBe(true);
    const shown = await value<{ absent?: string[] }>('getGeneration', { agentId: 'primary', number: g1.number });
    expect(shown.absent).toEqual([itemId]);
    const r = await value<{ generation: { number: number; boundary: { reason: string } }; restored: string[]; missing: string[] }>('restoreGeneration', { agentId: 'primary', number: g1.number });
    expect(r).toMatchObject({ generation: { number: g1.number + 1, boundary: { reason: `restored from generation ${g1.number}` } }, restored: [itemId], missing: [] });
    expect(host.engine.hasItem(itemId)).toBe(true);
    expect((await value<{ absent?: string[] }>('getGeneration', { agentId: 'primary', number: g1.number })).absent).toBeUndefined();
    expect(await call('restoreGeneration', { agentId: 'primary', number: 99 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('[history-from-catalog] [bounded-history] an old generation the engine released still shows whole, read back from the catalog', async () => {
    await play(1);
    expect((await call('rebuild', { agentId: 'primary' })).ok).toBe(true);
    const shape = (v: unknown) => {
      const g = v as { counts: unknown; included: { item: { id: string }; layer: string; tokens: number; score: number; tier: number; why: string }[]; dropped: { item: { id: string }; tokens: number; reason: string }[]; compressed: unknown[] };
      return { counts: g.counts, included: g.included.map((e) => [e.item.id, e.layer, e.tokens, e.score, e.tier, e.why]), dropped: g.dropped.map((d) => [d.item.id, d.tokens, d.reason]), compressed: g.compressed };
    };
    const diffShape = (v: unknown) => {
      const d = v as { added: { item: { id: string } }[]; dropped: { entry: { item: { id: string } }; reason: string }[]; kept: { item: { id: string } }[]; tokenDelta: number };
      return { added: d.added.map((e) => e.item.id), dropped: d.dropped.map((x) => [x.entry.item.id, x.reason]), kept: d.kept.map((e) => e.item.id), tokenDelta: d.tokenDelta };
    };
    const before = await call('getGeneration', { agentId: 'primary', number: 1 });
    const diffBefore = await call('diffGenerations', { agentId: 'primary', from: 1, to: 2 });
    expect(before.ok && diffBefore.ok).toBe(true);
    for (let i = 0; i < RECENT_FULL_GENERATIONS + 1; i++) expect((await call('rebuild', { agentId: 'primary' })).ok).toBe(true);
    // The engine released generation 1's entries …
    expect(host.engine.generation('primary', 1).released).toBeDefined();
    expect(host.engine.generation('primary', 1).included).toEqual([]);
    // … and the contract still shows it as it was.
    const after = await call('getGeneration', { agentId: 'primary', number: 1 });
    const diffAfter = await call('diffGenerations', { agentId: 'primary', from: 1, to: 2 });
    if (!before.ok || !after.ok || !diffBefore.ok || !diffAfter.ok) throw new Error('a call failed');
    expect(shape(before.value).included.length).toBeGreaterThan(0);
    expect(shape(after.value)).toEqual(shape(before.value));
    expect(diffShape(diffAfter.value)).toEqual(diffShape(diffBefore.value));
    const list = await call('listGenerations', { agentId: 'primary' });
    if (!list.ok) throw new Error('listGenerations failed');
    expect((list.value as { generations: { number: number; counts: unknown }[] }).generations[0]).toMatchObject({ number: 1, counts: shape(before.value).counts });
  });

  it.each([
    ['getGeneration', { agentId: 'primary', number: 9 }, 'not_found'],
    ['getGeneration', { agentId: 'nobody' }, 'not_found'],
    ['pin', { itemId: 'no-such-item' }, 'not_found'],
    ['promote', { itemId: 'objective', target: 'somewhere' }, 'invalid_args'],
    ['refresh', { agentId: 'primary', reason: '' }, 'invalid_args'],
    ['diffGenerations', { agentId: 'primary', from: 0, to: 1 }, 'invalid_args'],
  ])('refuses %s(%j) with %s and changes nothing', async (name, args, code) => {
    await play(1);
    const before = dumpCatalog(options.catalogPath);
    const generations = host.engine.generations('primary').length;
    expect(await call(name as CommandName, args)).toMatchObject({ ok: false, error: { code } });
    expect(dumpCatalog(options.catalogPath)).toEqual(before);
    expect(host.engine.generations('primary')).toHaveLength(generations);
  });
});

describe('Host.open', () => {
  it('[context-config] a demo folder whose strata.toml is invalid opens with the default [context] and logs the error naming the key', () => {
    const tmp = tempDir();
    try {
      const dir = join(tmp.dir, 'demo');
      mkdirSync(dir);
      writeFileSync(join(dir, 'strata.toml'), '[context]\nmax_tokens = -5\n');
      cpSync(join(demoDir, 'workspace'), join(dir, 'workspace'), { recursive: true });
      const host = Host.open({ catalogPath: join(tmp.dir, 'c.sqlite'), workspaceName: 'x', version: '0', demoDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
      try {
        expect(host.catalog.recentLog(10).map((l) => `${l.level}: ${l.message}`)).toContainEqual(expect.stringMatching(/^error: .*strata\.toml.*context\.max_tokens.*default \[context\] settings are used/));
        expect(host.runs.current!.runtime.conversation('primary').config.maxTokens).toBe(32000);
      } finally {
        host.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
