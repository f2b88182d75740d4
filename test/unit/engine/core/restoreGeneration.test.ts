import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../../engine/EngineEvent';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

function setup(budget = 4000) {
  const { engine } = newEngine();
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  return engine;
}

describe('Engine.restore', () => {
  it('[restore-generation] items a past generation included that left the pool come back, and the agent rebuilds now from them', () => {
    const engine = setup();
    engine.addItem(item({ id: 'read', kind: 'code', class: 'ephemeral', title: 'read src/auth/store.ts', content: 'export function saveToken() { /* src/auth/store.ts */ }', source: 'repository_source' }));
    engine.addItem(item({ id: 'finding' }));
    const g1 = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] }).generation;
    expect(g1.included.map((e) => e.item.id)).toEqual(expect.arrayContaining(['read', 'finding']));
    // A refresh drops the agent's ephemeral read (to the archive); an operator removes the finding.
    engine.refresh('worker-1', 'test');
    engine.remove('finding');
    expect(engine.hasItem('read')).toBe(false);
    expect(engine.hasItem('finding')).toBe(false);

    const events: EngineEvent[] = [];
    engine.on((e) => events.push(e));
    const r = engine.restore('worker-1', 1);
    expect(r.restored.sort()).toEqual(['finding', 'read']);
    expect(r.missing).toEqual([]);
    expect(engine.item('read').content).toBe('export function saveToken() { /* src/auth/store.ts */ }');
    expect(r.result.started).toBe(true);
    expect(r.result.generation).toMatchObject({ number: 3, boundary: { kind: 'rebuild', reason: 'restored from generation 1' } });
    expect(r.result.generation.included.map((e) => e.item.id)).toEqual(expect.arrayContaining(['objective', 'read', 'finding']));
    expect(events.filter((e) => e.type === 'item.added').map((e) => (e.type === 'item.added' ? e.item.id : ''))).toEqual(r.restored);
    expect(events.some((e) => e.type === 'generation.started' && e.text === 'Context refreshed · Generation 2 → 3 · Reason: restored from generation 1')).toBe(true);
  });

  it('[restore-generation] an item still in the pool keeps its present value; restoring the current generation only rebuilds', () => {
    const engine = setup();
    engine.addItem(item({ id: 'f' }));
    engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] });
    engine.pin('f');
    const r = engine.restore('worker-1', 1);
    expect(r.restored).toEqual([]);
    expect(engine.item('f').pinned).toBe(true);
    expect(r.result.generation.number).toBe(2);
  });

  it('[restore-generation] an unknown generation is not_found and changes nothing', () => {
    const engine = setup();
    engine.build('worker-1', { phase: 'implement' });
    expect(() => engine.restore('worker-1', 7)).toThrow(/has no generation 7/);
    expect(engine.currentGeneration('worker-1')).toBe(1);
  });
});
