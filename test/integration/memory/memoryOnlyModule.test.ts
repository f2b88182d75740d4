import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, CatalogError } from '../../../engine/node/catalog/Catalog';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { dumpCatalog } from '../../support/catalogDump';
import { rowOf } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';
import { validProposal, validRecord } from '../../unit/engine/memory/proposals';

const MEMORY_MODULE = /^The memory table is reachable only through the memory module \(engine\/memory\), so every write passes its intake\.$/;

describe('[memory-only-module] the catalog\'s generic accessors', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let catalog: Catalog;
  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    catalog = Catalog.open(path);
    MemoryStore.open(catalog, { partition: 'ws_0123456789abcdef', clock: manualClock(1_767_225_600_000) }).propose(validProposal());
  });
  afterEach(() => {
    catalog.close();
    tmp.remove();
  });

  const refusal = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (err) {
      return err;
    }
    return undefined;
  };

  it('[memory-only-module] readTable("memory") is refused with the memory-module message', () => {
    const err = refusal(() => catalog.readTable('memory'));
    expect(err).toBeInstanceOf(CatalogError);
    expect((err as Error).message).toMatch(MEMORY_MODULE);
    expect(refusal(() => catalog.readTable('memory', 1))).toBeInstanceOf(CatalogError);
  });

  it('[memory-only-module] putRow("memory", …) is refused, even for a row the guard would accept, and changes nothing', () => {
    const before = dumpCatalog(path);
    const valid = rowOf({ ...validRecord(), id: 'mem_viaputrow0001' }) as unknown as Record<string, string | number | null>;
    for (const row of [valid, { id: 'x' }, {}]) {
      const err = refusal(() => catalog.putRow('memory', row));
      expect(err).toBeInstanceOf(CatalogError);
      expect((err as Error).message).toMatch(MEMORY_MODULE);
    }
    expect(dumpCatalog(path)).toEqual(before);
    expect(before.memory).toHaveLength(1);
  });

  it('[memory-only-module] other tables are read and written through readTable/putRow', () => {
    catalog.putRow('meta', { key: 'exported.by', value: 'test' });
    expect(catalog.readTable('meta')).toContainEqual({ key: 'exported.by', value: 'test' });
    catalog.putRow('events', { at: 't0', level: 'info', agent_id: null, message: 'hello' });
    expect(catalog.readTable('events').map((e) => e.message)).toEqual(['hello']);
    expect(catalog.readTable('agents')).toEqual([]);
    expect(catalog.readTable('schema_migrations').length).toBeGreaterThan(0);
    expect(() => catalog.putRow('schema_migrations', { version: 99, name: 'x', applied_at: 'y' })).toThrow(CatalogError);
    expect(() => catalog.readTable('sqlite_master')).toThrow(/No table "sqlite_master"/);
  });
});
