import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../engine/host';
import { generateDemoRun } from '../../engine/demo/generateDemoRun';
import { demoAgentsFromEnv, scaledDemoRun } from '../../engine/demo/scaledDemoRun';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { quarterTokenizer } from '../support/engineFixtures';
import { demoFiles } from '../support/demoFiles';
import { demoDir, tempDir } from '../support/tempDir';

describe('scaledDemoRun', () => {
  it('has the primary spawn agents - 1 workers that replay demo turns, deterministically', () => {
    const s = scaledDemoRun(demoFiles, 12, 40);
    expect(s.scripts.size).toBe(12);
    const spawn = s.scripts.get('primary')?.[0]?.spawn ?? [];
    expect(spawn.map((x) => x.agentId)).toEqual(Array.from({ length: 11 }, (_, i) => `worker-${String(i + 1).padStart(2, '0')}`));
    for (const id of spawn.map((x) => x.agentId)) {
      const turns = s.scripts.get(id) ?? [];
      expect(turns).toHaveLength(40);
      expect(turns.filter((t) => t.done)).toHaveLength(1);
      expect(turns.at(-1)?.done).toBe(true);
      expect(turns.every((t) => !t.spawn)).toBe(true);
      // Tool call ids stay unique within a worker.
      const ids = turns.flatMap((t) => t.toolCalls.map((c) => c.id));
      expect(new Set(ids).size).toBe(ids.length);
    }
    // Some workers keep a context-limit turn, so refreshes happen.
    expect([...s.scripts.values()].flat().some((t) => t.contextLimit)).toBe(true);
    expect(scaledDemoRun(demoFiles, 12, 40)).toEqual(s);
  });

  it('refuses an agent count out of range', () => {
    expect(() => scaledDemoRun(demoFiles, 1)).toThrow(RangeError);
    expect(() => scaledDemoRun(demoFiles, 2.5)).toThrow(RangeError);
  });
});

describe('demoAgentsFromEnv (STRATA_DEMO_AGENTS)', () => {
  it('is undefined when unset or empty, so the default demo is unchanged', () => {
    expect(demoAgentsFromEnv({})).toBeUndefined();
    expect(demoAgentsFromEnv({ STRATA_DEMO_AGENTS: '' })).toBeUndefined();
  });
  it('parses a whole number and refuses anything else', () => {
    expect(demoAgentsFromEnv({ STRATA_DEMO_AGENTS: '200' })).toBe(200);
    for (const bad of ['1', 'x', '3.5', '-4', '100000']) expect(() => demoAgentsFromEnv({ STRATA_DEMO_AGENTS: bad })).toThrow(/STRATA_DEMO_AGENTS/);
  });
});

describe('Host with demoAgents', () => {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let host: Host | undefined;
  afterEach(() => {
    host?.close();
    tmp?.remove();
  });

  const open = (demoAgents?: number) => {
    tmp = tempDir();
    const scheduler = manualScheduler();
    host = Host.open({
      catalogPath: join(tmp.dir, 'catalog.sqlite'),
      workspaceName: 'demo',
      version: '1',
      demoDir,
      demoTickMs: 10,
      clock: manualClock(Date.parse('2026-11-29T12:00:00Z')),
      scheduler,
      tokenizer: quarterTokenizer,
      ...(demoAgents !== undefined ? { demoAgents } : {}),
    });
    return { host, scheduler };
  };

  it('plays the scaled demo: the primary spawns the workers and they take turns', async () => {
    const { host: h, scheduler } = open(6);
    for (let i = 0; i < 8; i++) {
      scheduler.tick();
      await h.runs.current?.idle();
    }
    const conn = h.connect(() => undefined);
    const list = await conn.call('listAgents', {});
    if (!list.ok) throw new Error(list.error.message);
    const agents = (list.value as { agents: { agentId: string; parent: string | null }[] }).agents;
    expect(agents).toHaveLength(6);
    expect(agents.filter((a) => a.parent === 'primary')).toHaveLength(5);
    const usage = await conn.call('getUsage', { agentId: 'worker-1' });
    expect(usage).toMatchObject({ ok: true, value: { agentId: 'worker-1' } });
    expect(h.runs.list()[0]).toMatchObject({ runId: 'demo', agents: 6 });
  });

  it('without the option plays the bundled demo', async () => {
    const { host: h, scheduler } = open();
    for (let i = 0; i < 4; i++) {
      scheduler.tick();
      await h.runs.current?.idle();
    }
    const bundled = generateDemoRun(demoFiles, 1);
    const ids = h.runs.current?.runtime.agentIds() ?? [];
    expect(ids[0]).toBe(bundled.primary.agentId);
    expect(ids.every((id) => bundled.scripts.has(id))).toBe(true);
    expect(ids.length).toBeGreaterThan(1);
  });
});
