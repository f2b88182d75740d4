import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandName, Commands, type StrataEvent } from '../../engine/contract';
import { Host, type HostOptions } from '../../engine/host';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { loadDemoScenario } from '../../engine/host/demoScenario';
import { dumpCatalog } from '../support/catalogDump';
import { latestSchemaVersion } from '../../engine/catalog/migrations';
import { demoDir, tempDir } from '../support/tempDir';
import { quarterTokenizer } from '../support/engineFixtures';

const scenario = loadDemoScenario(demoDir);

describe('Host over a temp-dir catalog with the demo workspace', () => {
  let tmp: ReturnType<typeof tempDir>;
  let options: HostOptions;
  let host: Host;
  const scheduler = manualScheduler();

  beforeEach(() => {
    tmp = tempDir();
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

  it('seeds the demo agents on first run and reports health', async () => {
    const { envelope } = await call('health', {});
    expect(envelope).toMatchObject({
      ok: true,
      value: { ok: true, version: '9.9.9', agents: scenario.agents.length, catalog: { journalMode: 'wal', schemaVersion: latestSchemaVersion } },
    });
    const list = await call('listAgents', {});
    expect(list.envelope.ok && (list.envelope.value as { agents: { agentId: string; status: string }[] }).agents.map((a) => a.status)).toEqual(
      scenario.agents.map(() => 'waiting'),
    );
  });

  it('answers every command with a value its result schema accepts', async () => {
    scheduler.tick(3);
    const memId = () => memoryIdFor('task:primary');
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
      promote: { itemId: 'decision:1', target: 'pool' },
      remove: { itemId: 'read:3' },
      rebuild: { agentId: 'primary' },
      refresh: { agentId: 'architect-1' },
      listMemory: {},
      promoteToMemory: { itemId: 'task:primary' },
      getMemory: undefined,
      verifyMemory: undefined,
      retireMemory: undefined,
      purgeMemory: { confirm: 'purge project memory' },
      getConversation: { agentId: 'primary' },
      listSkills: {},
    };
    // Memory commands after the promotion need the id it created (and its revision).
    const late: Partial<Record<CommandName, () => unknown>> = {
      getMemory: () => ({ id: memId() }),
      verifyMemory: () => ({ id: memId(), revision: 1 }),
      retireMemory: () => ({ id: memId(), revision: 2 }),
    };
    const memoryIdFor = (itemId: string) => host.memory.list().find((r) => r.provenance.itemId === itemId)?.id;
    for (const name of Object.keys(samples) as CommandName[]) {
      const { envelope } = await call(name, late[name] ? late[name]!() : samples[name]);
      expect(envelope.ok, `${name}: ${JSON.stringify(envelope)}`).toBe(true);
      if (envelope.ok) expect(() => Commands[name].result.parse(envelope.value)).not.toThrow();
    }
  });

  it('plays one scenario step per tick and pushes it only to subscribed sessions', async () => {
    const logOnly: StrataEvent[] = [];
    const both: StrataEvent[] = [];
    const silent: StrataEvent[] = [];
    await (await call('subscribe', { events: ['log'] }, logOnly)).envelope;
    await call('subscribe', { events: ['agent.updated', 'log'] }, both);
    await call('listAgents', {}, silent);

    scheduler.tick();
    const first = scenario.steps[0]!;
    expect(both.map((e) => e.name)).toEqual(['agent.updated', 'log']);
    const updated = both[0]!;
    expect(updated.name === 'agent.updated' && updated.payload.agent).toMatchObject({
      agentId: first.agentId,
      status: first.status,
      generation: 1,
      revision: 1,
      updatedAt: '2026-11-29T12:00:00.000Z',
    });
    expect(updated.name === 'agent.updated' && updated.payload.agent.tokens).toBe(host.engine.generation(first.agentId, 1).tokens);
    expect(logOnly.map((e) => e.name)).toEqual(['log']);
    expect(silent).toEqual([]);

    const detail = await call('getAgent', { agentId: first.agentId });
    expect(detail.envelope.ok && (detail.envelope.value as { recentLog: { message: string }[] }).recentLog.at(-1)?.message).toBe(first.log);
  });

  it('accumulates usage into the hit rate and restarts the scenario at its end', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['agent.updated', 'log'] }, events);
    scheduler.tick(scenario.steps.length);
    const primary = (await call('getAgent', { agentId: 'primary' })).envelope;
    const usage = scenario.steps.filter((s) => s.agentId === 'primary' && s.usage).map((s) => s.usage!);
    const read = usage.reduce((n, u) => n + u.cacheRead, 0);
    const denominator = usage.reduce((n, u) => n + u.input + u.cacheRead + u.cacheWrite, 0);
    expect(primary.ok && (primary.value as { agent: { cacheHitRate: number } }).agent.cacheHitRate).toBeCloseTo(read / denominator, 10);

    events.length = 0;
    scheduler.tick();
    const resets = events.filter((e) => e.name === 'agent.updated');
    expect(resets).toHaveLength(scenario.agents.length);
    expect(resets.every((e) => e.name === 'agent.updated' && e.payload.agent.status === 'waiting' && e.payload.agent.tokens === 0)).toBe(true);
    expect(events.at(-1)).toMatchObject({ name: 'log', payload: { entry: { message: 'Demo scenario restarted' } } });
  });

  it('continues where it stopped after a restart and never seeds twice', async () => {
    scheduler.tick(3);
    host.close();
    host = Host.open(options);
    const list = await call('listAgents', {});
    expect(list.envelope.ok && (list.envelope.value as { agents: unknown[] }).agents).toHaveLength(scenario.agents.length);
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['log'] }, events);
    host.stepDemo();
    expect(events[0]).toMatchObject({ name: 'log', payload: { entry: { message: scenario.steps[3]!.log } } });
    const loaded = (await call('getAgent', { agentId: 'primary' })).envelope;
    expect(loaded.ok && (loaded.value as { recentLog: { message: string }[] }).recentLog.filter((l) => l.message.startsWith('Demo workspace'))).toHaveLength(0);
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

  it('stops its demo timer on close', () => {
    const before = scheduler.active();
    host.close();
    expect(scheduler.active()).toBe(before - 1);
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
  const limitStep = scenario.steps.findIndex((st) => st.contextLimit);

  it('gives each built agent a generation with the task items in L1 and the pinned constraint', async () => {
    host.stepDemo();
    const g = await call('getGeneration', { agentId: 'primary' });
    expect(g.ok).toBe(true);
    if (!g.ok) return;
    const v = g.value as { number: number; included: { item: { id: string }; layer: string }[]; prompt: { L0: string; L1: string } | null };
    expect(v.number).toBe(1);
    expect(v.included.filter((e) => e.layer === 'L1').map((e) => e.item.id).sort()).toEqual(['acceptance', 'constraint:no-token-logs', 'objective', 'task:primary']);
    expect(v.prompt?.L1).toContain('Never log token values');
  });

  it('refreshes the agent on the scenario\'s context-limit error and logs the refresh line', async () => {
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['generation.started', 'log'] }, events);
    for (let i = 0; i <= limitStep; i++) host.stepDemo();
    const agentId = scenario.steps[limitStep]!.agentId;
    const started = events.filter((e) => e.name === 'generation.started' && e.payload.agentId === agentId && e.payload.previous !== null);
    expect(started.at(-1)).toMatchObject({ payload: { boundary: { kind: 'refresh' }, text: expect.stringMatching(/^Context refreshed · Generation \d+ → \d+ · Reason: provider context-limit error: prompt is too long/) } });
    const list = await call('listGenerations', { agentId });
    expect(list.ok && (list.value as { generations: unknown[] }).generations.length).toBeGreaterThanOrEqual(2);
    expect(events.some((e) => e.name === 'log' && e.payload.entry.message.startsWith('Context refreshed · Generation'))).toBe(true);
  });

  it('restores the engine after a restart by replaying the steps already played', async () => {
    for (let i = 0; i <= limitStep; i++) host.stepDemo();
    const agentId = scenario.steps[limitStep]!.agentId;
    const before = host.engine.generations(agentId).map((g) => [g.number, g.tokens, g.prefixHash]);
    host.close();
    host = Host.open(options);
    expect(host.engine.generations(agentId).map((g) => [g.number, g.tokens, g.prefixHash])).toEqual(before);
  });

  it('pins, verifies, rebuilds and refreshes through the contract', async () => {
    host.stepDemo();
    const events: StrataEvent[] = [];
    await call('subscribe', { events: ['item.changed', 'generation.started', 'agent.updated'] }, events);
    expect(await call('pin', { itemId: 'acceptance' })).toMatchObject({ ok: true, value: { item: { id: 'acceptance', pinned: true } } });
    expect(await call('verify', { itemId: 'decision:1' })).toMatchObject({ ok: true, value: { item: { provenance: { verified: true } } } });
    const rebuilt = await call('rebuild', { agentId: 'primary' });
    expect(rebuilt).toMatchObject({ ok: true, value: { generation: { number: 2, boundary: { kind: 'rebuild', reason: 'manual rebuild by an operator' } } } });
    const refreshed = await call('refresh', { agentId: 'primary', reason: 'operator asked' });
    expect(refreshed).toMatchObject({ ok: true, value: { from: 2, to: 3, text: 'Context refreshed · Generation 2 → 3 · Reason: operator asked' } });
    expect(events.filter((e) => e.name === 'item.changed').map((e) => e.name === 'item.changed' && e.payload.change)).toEqual(expect.arrayContaining(['pinned', 'verified']));
    expect(events.filter((e) => e.name === 'agent.updated').at(-1)).toMatchObject({ payload: { agent: { agentId: 'primary', generation: 3 } } });
    const diff = await call('diffGenerations', { agentId: 'primary', from: 1, to: 3 });
    expect(diff).toMatchObject({ ok: true, value: { from: 1, to: 3, reason: 'operator asked' } });
  });

  it.each([
    ['getGeneration', { agentId: 'primary', number: 9 }, 'not_found'],
    ['getGeneration', { agentId: 'nobody' }, 'not_found'],
    ['pin', { itemId: 'no-such-item' }, 'not_found'],
    ['promote', { itemId: 'objective', target: 'somewhere' }, 'invalid_args'],
    ['refresh', { agentId: 'primary', reason: '' }, 'invalid_args'],
    ['diffGenerations', { agentId: 'primary', from: 0, to: 1 }, 'invalid_args'],
  ])('refuses %s(%j) with %s and changes nothing', async (name, args, code) => {
    host.stepDemo();
    const before = dumpCatalog(options.catalogPath);
    const generations = host.engine.generations('primary').length;
    expect(await call(name as CommandName, args)).toMatchObject({ ok: false, error: { code } });
    expect(dumpCatalog(options.catalogPath)).toEqual(before);
    expect(host.engine.generations('primary')).toHaveLength(generations);
  });
});

describe('Host.open', () => {
  it('refuses an invalid demo scenario with the file named and creates no catalog', () => {
    const tmp = tempDir();
    try {
      const catalogPath = join(tmp.dir, 'c.sqlite');
      expect(() => Host.open({ catalogPath, workspaceName: 'x', version: '0', demoDir: tmp.dir })).toThrow(/scenario\.json/);
      expect(() => dumpCatalog(catalogPath)).toThrow();
    } finally {
      tmp.remove();
    }
  });
});
