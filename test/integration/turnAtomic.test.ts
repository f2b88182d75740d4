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

  it('[turn-atomic] a demo step whose generation cannot be stored writes nothing at all', () => {
    for (let i = 0; i < 2; i++) host.stepDemo();
    const before = dumpCatalog(catalogPath);
    const original = host.catalog.saveGeneration.bind(host.catalog);
    host.catalog.saveGeneration = () => {
      throw new Error('disk full');
    };
    const itemsBefore = host.engine.items().map((i) => i.id);
    expect(() => host.stepDemo()).toThrow(/disk full/);
    expect(dumpCatalog(catalogPath)).toEqual(before);
    // The engine is rebuilt from the catalog, so it does not hold the failed step's items either.
    expect(host.engine.items().map((i) => i.id)).toEqual(itemsBefore);
    host.catalog.saveGeneration = original;
    host.stepDemo();
    expect(dumpCatalog(catalogPath).events!.length).toBe(before.events!.length + 1);
  });

  it('[turn-atomic] a step stores its items, the built generation with its entries, the agent and the log line together', () => {
    host.stepDemo();
    const d = dumpCatalog(catalogPath);
    expect(d.items!.length).toBeGreaterThan(3);
    expect(d.generations).toHaveLength(1);
    expect(d.generation_entries!.some((e) => (e as { role: string }).role === 'included')).toBe(true);
    expect(d.agents!.find((a) => (a as { agent_id: string }).agent_id === 'primary')).toMatchObject({ generation: 1, revision: 1 });
  });
});
