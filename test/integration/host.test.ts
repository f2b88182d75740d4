import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandName, Commands, type StrataEvent } from '../../engine/contract';
import { Host, type HostOptions } from '../../engine/host';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { loadDemoScenario } from '../../engine/host/demoScenario';
import { dumpCatalog } from '../support/catalogDump';
import { demoDir, tempDir } from '../support/tempDir';

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
      value: { ok: true, version: '9.9.9', agents: scenario.agents.length, catalog: { journalMode: 'wal', schemaVersion: 1 } },
    });
    const list = await call('listAgents', {});
    expect(list.envelope.ok && (list.envelope.value as { agents: { agentId: string; status: string }[] }).agents.map((a) => a.status)).toEqual(
      scenario.agents.map(() => 'waiting'),
    );
  });

  it('answers every command with a value its result schema accepts', async () => {
    const samples: { [K in CommandName]: unknown } = {
      health: {},
      listAgents: {},
      getAgent: { agentId: 'primary' },
      subscribe: { events: ['log'] },
    };
    for (const name of Object.keys(samples) as CommandName[]) {
      const { envelope } = await call(name, samples[name]);
      expect(envelope.ok, name).toBe(true);
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
      tokens: first.tokens,
      revision: 1,
      updatedAt: '2026-11-29T12:00:00.000Z',
    });
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
