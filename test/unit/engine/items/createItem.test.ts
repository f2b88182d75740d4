import { describe, expect, it } from 'vitest';
import type { Source } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import { contentHash } from '../../../../engine/text/hash';
import { identity, item, newEngine, T0 } from '../../../support/engineFixtures';
import { CLASSES, SOURCES } from '../../../support/enginePools';

const base: ItemInput = {
  id: 'i1',
  kind: 'finding',
  class: 'finding',
  content: 'saveToken() writes the refresh token in src/auth/store.ts',
  source: 'worker_finding',
  agentId: 'worker-1',
  taskId: 'task-auth',
  at: T0,
};

describe('createItem', () => {
  it('[provenance-complete] every item carries source, agent, task, time, confidence, relevance, durability, verification, files and symbols', () => {
    const i = createItem({ ...base, confidence: 0.9, relevance: 0.7, durability: 'phase', files: ['src/a.ts', 'src/a.ts', 'src/b.ts'], symbols: ['f', 'g', 'f'] });
    expect(i.provenance).toEqual({
      source: 'worker_finding',
      agentId: 'worker-1',
      taskId: 'task-auth',
      at: T0,
      confidence: 0.9,
      relevance: 0.7,
      durability: 'phase',
      verified: false,
      files: ['src/a.ts', 'src/b.ts'],
      symbols: ['f', 'g'],
    });
    expect(i.contentHash).toBe(contentHash(base.content));
    expect(i).toMatchObject({ id: 'i1', kind: 'finding', class: 'finding', title: 'finding', pinned: false, mandatory: false });
    expect('phase' in i).toBe(false);
    expect('signature' in i).toBe(false);
  });

  it.each([
    ['ephemeral', 'transient'],
    ['raw_history', 'transient'],
    ['task_state', 'task'],
    ['finding', 'task'],
    ['project_memory', 'project'],
  ] as const)('[provenance-complete] a %s item without durability gets %s, and defaults confidence/relevance to 0.5', (cls, durability) => {
    const p = createItem({ ...base, class: cls }).provenance;
    expect(p).toMatchObject({ durability, confidence: 0.5, relevance: 0.5, files: [], symbols: [] });
  });

  it.each([
    [-0.5, 0],
    [1.7, 1],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
    [0.25, 0.25],
  ])('[provenance-complete] confidence %d is clamped to %d', (given, kept) => {
    expect(createItem({ ...base, confidence: given, relevance: given }).provenance).toMatchObject({ confidence: kept, relevance: kept });
  });

  it('[provenance-complete] the item does not share arrays with its input', () => {
    const files = ['src/a.ts'];
    const i = createItem({ ...base, files });
    files.push('src/evil.ts');
    expect(i.provenance.files).toEqual(['src/a.ts']);
  });

  it('[provenance-complete] items in a generation keep their full provenance', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    const added = engine.addItem(item({ id: 'code-1', kind: 'code', class: 'finding', source: 'repository_source', confidence: 0.8, relevance: 0.9 }));
    const entry = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] }).generation.included.find((e) => e.item.id === 'code-1');
    expect(entry?.item.provenance).toEqual(added.provenance);
  });

  it.each(SOURCES.map((s) => [s, s === 'verified_fact'] as const))('[verify-explicit] source %s enters with verified=%s', (source, verified) => {
    expect(createItem({ ...base, source }).provenance.verified).toBe(verified);
  });

  it('[verify-explicit] a producer cannot smuggle verified=true into a new item', () => {
    const sneaky = { ...base, source: 'unverified_hypothesis', verified: true, provenance: { verified: true } } as unknown as ItemInput;
    expect(createItem(sneaky).provenance.verified).toBe(false);
    const { engine } = newEngine();
    expect(engine.addItem(sneaky).provenance.verified).toBe(false);
  });

  it('[verify-explicit] pin, unpin, promote and refresh leave verified alone; only verify sets it', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'h', kind: 'note', class: 'task_state', source: 'unverified_hypothesis' }));
    engine.build('worker-1', { phase: 'implement' });
    engine.pin('h');
    engine.unpin('h');
    engine.promote('h', 'pool');
    engine.promote('h', 'memory');
    engine.refresh('worker-1', 'test');
    expect(engine.item('h').provenance.verified).toBe(false);
    expect(engine.verify('h').provenance.verified).toBe(true);
    expect(engine.item('h').provenance.verified).toBe(true);
  });
});

describe('[sources-distinct] the nine sources', () => {
  it('[sources-distinct] are nine distinct values', () => {
    expect(new Set(SOURCES).size).toBe(9);
  });

  it.each(SOURCES)('[sources-distinct] %s survives every engine operation unchanged', (source: Source) => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ scope: { maxItemTokens: 60 } }));
    const ids = CLASSES.map((cls) => {
      const id = `${source}-${cls}`;
      engine.addItem(item({ id, kind: 'note', class: cls, source, content: `${source} ${cls} refresh token line\n`.repeat(40) }));
      return id;
    });
    engine.build('worker-1', { phase: 'implement', keywords: ['refresh', 'token'] });
    for (const id of ids) {
      engine.pin(id);
      engine.unpin(id);
      engine.verify(id);
      engine.promote(id, 'pool');
      engine.promote(id, 'memory');
    }
    const g = engine.build('worker-1', { phase: 'implement', keywords: ['refresh', 'token'] }).generation;
    // Clipped entries are new objects: they too keep the source.
    expect(g.compressed.length).toBeGreaterThan(0);
    for (const e of [...g.included, ...g.dropped]) if (ids.includes(e.item.id)) expect(e.item.provenance.source).toBe(source);
    engine.refresh('worker-1', 'test');
    for (const i of [...engine.items(), ...engine.archived()]) if (ids.includes(i.id)) expect(i.provenance.source).toBe(source);
  });

  it('[sources-distinct] the state a refresh carries over is a new generated_summary item, not a rewritten one', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'log', kind: 'tool_output', class: 'ephemeral', source: 'test_result', content: 'FAILED tests/refresh.spec.ts: expected 200, got 401' }));
    engine.build('worker-1', { phase: 'implement' });
    engine.refresh('worker-1', 'test');
    expect(engine.archived().find((i) => i.id === 'log')?.provenance.source).toBe('test_result');
    expect(engine.item('state:worker-1:g1').provenance.source).toBe('generated_summary');
  });
});
