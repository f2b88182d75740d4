import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog, CatalogError, type AgentRecord } from '../../engine/node/catalog/Catalog';
import { latestSchemaVersion, migrations } from '../../engine/node/catalog/migrations';
import { tempDir } from '../support/tempDir';
import { identity, item, newEngine, taskItems } from '../support/engineFixtures';

const agent = (id: string, parent: string | null, revision = 0): AgentRecord => ({
  agentId: id,
  parent,
  role: parent ? 'worker' : 'primary',
  task: `task of ${id}`,
  model: 'm',
  status: 'waiting',
  generation: 1,
  tokens: 0,
  budget: 1000,
  usage: { input: 1, cacheRead: 2, cacheWrite: 3, output: 4 },
  revision,
  updatedAt: '2026-11-29T00:00:00.000Z',
});

describe('Catalog', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'nested', 'catalog.sqlite');
  });
  afterEach(() => tmp.remove());

  it('creates the file with WAL and applies every migration once', () => {
    const c = Catalog.open(path);
    expect(c.journalMode()).toBe('wal');
    expect(c.schemaVersion()).toBe(latestSchemaVersion);
    c.close();
    const again = Catalog.open(path);
    expect(again.schemaVersion()).toBe(latestSchemaVersion);
    again.close();
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    raw.close();
    expect(rows).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
  });

  it('refuses a catalog from a newer Strata and leaves the file unchanged', () => {
    Catalog.open(path).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(latestSchemaVersion + 1, 'future', 'x');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = readFileSync(path);
    expect(() => Catalog.open(path)).toThrow(CatalogError);
    expect(() => Catalog.open(path)).toThrow(/newer than this Strata.*not changed/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('names the file when it cannot be opened', () => {
    const dirAsFile = join(tmp.dir, 'a-folder');
    mkdirSync(dirAsFile);
    let error: unknown;
    try {
      Catalog.open(dirAsFile);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as Error).message).toContain(dirAsFile);
  });

  it('lists agents parents first, then by id, and round-trips every field', () => {
    const c = Catalog.open(path);
    c.transaction(() => {
      c.putAgent(agent('primary', null));
      c.putAgent(agent('b-worker', 'primary'));
      c.putAgent(agent('a-worker', 'primary'));
      c.putAgent(agent('probe', 'a-worker'));
    });
    expect(c.listAgents().map((a) => a.agentId)).toEqual(['primary', 'a-worker', 'b-worker', 'probe']);
    expect(c.getAgent('probe')).toEqual(agent('probe', 'a-worker'));
    expect(c.childrenOf('primary')).toEqual(['a-worker', 'b-worker']);
    c.putAgent({ ...agent('probe', 'a-worker', 5), status: 'running', tokens: 12 });
    expect(c.getAgent('probe')).toMatchObject({ revision: 5, status: 'running', tokens: 12 });
    expect(c.countAgents()).toBe(4);
    c.close();
  });

  it('rolls a failed transaction back completely', () => {
    const c = Catalog.open(path);
    expect(() =>
      c.transaction(() => {
        c.putAgent(agent('primary', null));
        c.appendLog({ at: 'now', level: 'info', agentId: null, message: 'hello' });
        c.putAgent(agent('orphan', 'no-such-parent'));
      }),
    ).toThrow(/FOREIGN KEY/);
    expect(c.countAgents()).toBe(0);
    expect(c.recentLog(10)).toEqual([]);
    c.close();
  });

  it('keeps the log in seq order and filters it by agent', () => {
    const c = Catalog.open(path);
    for (let i = 0; i < 5; i++) c.appendLog({ at: `t${i}`, level: 'info', agentId: i % 2 ? 'a' : null, message: `m${i}` });
    const all = c.recentLog(3);
    expect(all.map((e) => e.message)).toEqual(['m2', 'm3', 'm4']);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((x, y) => x - y));
    expect(c.recentLog(10, 'a').map((e) => e.message)).toEqual(['m1', 'm3']);
    c.close();
  });

  it('stores workspace meta values', () => {
    const c = Catalog.open(path);
    expect(c.getMeta('k')).toBeUndefined();
    c.setMeta('k', '1');
    c.setMeta('k', '2');
    expect(c.getMeta('k')).toBe('2');
    c.close();
  });

  it('[history-from-catalog] reads back a stored generation\'s entries in order, with its items, up to a dropped limit; a run starting over clears them', () => {
    const c = Catalog.open(path);
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 600 }));
    for (const i of taskItems()) engine.addItem(i);
    for (let k = 0; k < 12; k++) engine.addItem(item({ id: `noise-${k}`, agentId: 'worker-2', kind: 'tool_output', class: 'ephemeral', content: `unrelated build log line ${k} `.repeat(20) }));
    engine.build('worker-1', { phase: 'implement' });
    const g = engine.generation('worker-1', 1);
    expect(g.dropped.length).toBeGreaterThan(3);
    engine.items().forEach((i, seq) => c.putItem(i, seq));
    c.saveGeneration(g, 5);
    // The catalog lost one dropped item's row: it is named by id, not left out.
    const lost = g.dropped[1]!.item.id;
    const raw = new Database(path);
    raw.prepare('DELETE FROM items WHERE id = ?').run(lost);
    raw.close();

    const stored = c.storedEntries('worker-1', 1, 3)!;
    expect(stored.included.map((e) => [e.item, e.layer, e.tokens, e.score, e.tier, e.why])).toEqual(g.included.map((e) => [e.item, e.layer, e.tokens, e.score, e.tier, e.why]));
    expect(stored.dropped.map((d) => [d.item.id, d.tokens, d.reason])).toEqual(g.dropped.slice(0, 3).map((d) => [d.item.id, d.tokens, d.reason]));
    expect(stored.dropped[0]!.item).toEqual(g.dropped[0]!.item);
    expect(stored.dropped[1]!.item.content).toBe(`(item ${lost} is no longer in the catalog)`);
    expect(stored.compressed).toEqual(g.compressed);
    expect(c.storedEntries('worker-1', 2, 3)).toBeUndefined();
    expect(c.storedEntries('nobody', 1, 3)).toBeUndefined();

    c.putAgent(agent('worker-1', null));
    c.clearAgents();
    expect(c.storedEntries('worker-1', 1, 3)).toBeUndefined();
    expect(c.storedGenerations('worker-1')).toEqual([]);
    c.close();
  });
});
