import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from '../../engine/host';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { dumpCatalog } from '../support/catalogDump';
import { quarterTokenizer } from '../support/engineFixtures';
import { demoDir, tempDir } from '../support/tempDir';

describe('a turn is one transaction', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  let catalogPath: string;
  beforeEach(() => {
    tmp = tempDir();
    catalogPath = join(tmp.dir, 'catalog.sqlite');
    host = Host.open({ catalogPath, workspaceName: 'demo', version: '1', demoDir, scheduler: manualScheduler(), tokenizer: quarterTokenizer });
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });

  it('[turn-atomic] a demo turn whose commit cannot be stored writes nothing at all, and the demo is rebuilt from the catalog', async () => {
    for (let i = 0; i < 4; i++) await host.stepDemo();
    const before = dumpCatalog(catalogPath);
    const turnsBefore = host.runs.current!.turns;
    const itemsBefore = host.engine.items().map((i) => i.id).sort();
    const original = host.catalog.setMeta.bind(host.catalog);
    host.catalog.setMeta = () => {
      throw new Error('disk full');
    };
    await expect(host.stepDemo()).rejects.toThrow(/could not be committed: disk full/);
    host.catalog.setMeta = original;
    // Only the error line about the failed commit was written.
    const after = dumpCatalog(catalogPath);
    // (sqlite_sequence counts the one log line below.)
    expect({ ...after, events: after.events!.slice(0, before.events!.length), sqlite_sequence: before.sqlite_sequence }).toEqual(before);
    expect(after.events!.slice(before.events!.length).map((e) => (e as { message: string }).message)).toEqual([expect.stringMatching(/could not be committed: disk full; the demo is rebuilt from the catalog/)]);
    // The rebuilt run holds exactly what the catalog holds.
    expect(host.runs.current!.turns).toBe(turnsBefore);
    expect(host.engine.items().map((i) => i.id).sort()).toEqual(itemsBefore);
    await host.stepDemo();
    expect(host.runs.current!.turns).toBe(turnsBefore + 1);
  });

  it('[turn-atomic] a turn stores its items, the built generation with its entries, the agent and the log line together', async () => {
    await host.stepDemo();
    const d = dumpCatalog(catalogPath);
    expect(d.items!.length).toBeGreaterThan(3);
    expect(d.generations).toHaveLength(1);
    expect(d.generation_entries!.some((e) => (e as { role: string }).role === 'included')).toBe(true);
    expect(d.agents!.find((a) => (a as { agent_id: string }).agent_id === 'primary')).toMatchObject({ generation: 1 });
    expect(d.meta!.find((m) => (m as { key: string }).key === 'run.demo.turns')).toMatchObject({ value: '1' });
  });
});
