import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../../engine/generations/Generation';
import type { Scope } from '../../../../engine/pack/Scope';
import type { StrategyName } from '../../../../engine/strategies/Strategy';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

function setup(budget = 4000, strategy: StrategyName = 'variable', scope: Scope = {}) {
  const { engine, clock } = newEngine();
  const id = identity({ budget, scope: { excludeProjectMemory: false, ...scope } });
  engine.registerAgent(id, strategy);
  for (const i of taskItems()) engine.addItem(i);
  return { engine, clock, id };
}

/** Four generations, one per kind of boundary. */
function fourGenerations() {
  const s = setup();
  const { engine } = s;
  engine.addItem(item({ id: 'f1', kind: 'code', class: 'finding' }));
  engine.build('worker-1', { phase: 'explore' });
  engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'src/auth/store.ts:3: saveToken' }));
  engine.build('worker-1', { phase: 'explore' });
  engine.build('worker-1', { phase: 'implement' });
  engine.rebuild('worker-1', 'operator asked');
  engine.refresh('worker-1', 'context too long');
  return s;
}

describe('generations of an agent', () => {
  it('[identity-survives] the identity is the same, with the same values, through rebuilds, phase changes and refreshes', () => {
    const { engine, id } = fourGenerations();
    const snapshot = structuredClone(id);
    expect(engine.generations('worker-1').map((g) => g.number)).toEqual([1, 2, 3, 4]);
    expect(engine.identity('worker-1')).toBe(engine.identity('worker-1'));
    expect(engine.identity('worker-1')).toEqual(snapshot);
    for (const g of engine.generations('worker-1')) {
      expect(g.agentId).toBe('worker-1');
      expect(g.budget).toBe(snapshot.budget);
    }
  });

  it('[generations-kept] every generation stays inspectable, unchanged, after newer ones begin', () => {
    const { engine } = setup();
    engine.addItem(item({ id: 'f1', kind: 'code', class: 'finding' }));
    engine.build('worker-1', { phase: 'explore' });
    engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'src/auth/store.ts:3: saveToken' }));
    engine.build('worker-1', { phase: 'explore' });
    const ended: Generation[] = [];
    const keep = () => ended.push(structuredClone(engine.generations('worker-1').at(-1)!));
    keep();
    engine.build('worker-1', { phase: 'implement' });
    keep();
    engine.rebuild('worker-1', 'operator asked');
    keep();
    engine.refresh('worker-1', 'context too long');
    for (let k = 0; k < 5; k++) {
      engine.addItem(item({ id: `later-${k}`, kind: 'finding', class: 'finding' }));
      engine.build('worker-1', { phase: 'implement' });
    }
    const all = engine.generations('worker-1');
    expect(all.map((g) => [g.number, g.boundary.kind])).toEqual([
      [1, 'start'],
      [2, 'rebuild'],
      [3, 'rebuild'],
      [4, 'refresh'],
    ]);
    for (const old of ended) expect(engine.generation('worker-1', old.number)).toEqual(old);
    // Generation 1 still shows the grep dump the refresh removed from the pool.
    expect(engine.generation('worker-1', 1).included.map((e) => e.item.id)).toContain('grep');
    expect(() => engine.item('grep')).toThrow(/No item/);
  });
});

describe('[diff-value] the diff of two generations', () => {
  it('[diff-value] names added, dropped with reasons, compressed, kept, the token delta and the reason', () => {
    const { engine } = setup(3000, 'summary', { maxItemTokens: 60 });
    const req = { phase: 'implement', files: ['src/auth/store.ts'] };
    engine.addItem(item({ id: 'stays', kind: 'code', class: 'finding' }));
    engine.addItem(item({ id: 'removed', kind: 'code', class: 'finding', content: 'rotateRefreshToken() in src/auth/refresh.ts' }));
    const g1 = engine.build('worker-1', req).generation;
    expect(g1.included.map((e) => e.item.id).sort()).toEqual(['acceptance', 'constraint-1', 'objective', 'removed', 'stays']);

    engine.remove('removed');
    engine.addItem(item({ id: 'big', kind: 'code', class: 'finding', content: 'line of the new module\n'.repeat(60) }));
    engine.addItem(item({ id: 'new', kind: 'finding', class: 'finding', source: 'verified_fact' }));
    const g2 = engine.build('worker-1', req).generation;

    const d = engine.diff('worker-1', 1, 2);
    expect(d.agentId).toBe('worker-1');
    expect([d.from, d.to]).toEqual([1, 2]);
    expect(d.reason).toBe('item removed removed');
    expect(d.reason).toBe(g2.boundary.reason);
    expect(d.added.map((e) => e.item.id).sort()).toEqual(['big', 'new']);
    expect(d.kept.map((e) => e.item.id).sort()).toEqual(['acceptance', 'constraint-1', 'objective', 'stays']);
    expect(d.dropped.map((x) => [x.entry.item.id, x.reason])).toEqual([['removed', 'no longer in the pool (removed or dropped at refresh)']]);
    // Dropped entries are the entries of the older generation.
    for (const x of d.dropped) expect(g1.included).toContain(x.entry);
    expect(d.compressed.map((c) => [c.itemId, c.method])).toEqual([['big', 'clip']]);
    expect(d.compressed).toEqual(g2.compressed);
    expect(d.tokenDelta).toBe(generationTokens(g2) - generationTokens(g1));
    expect(d.tokenDelta).not.toBe(0);
    // A plain value: it survives a structured clone and JSON unchanged.
    expect(structuredClone(d)).toEqual(d);
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
  });

  it('[diff-value] diff(a, a) adds, drops and compresses nothing and keeps everything', () => {
    const { engine } = setup(4000, 'variable', { maxItemTokens: 60 });
    engine.addItem(item({ id: 'big', kind: 'code', class: 'finding', content: 'line of the new module\n'.repeat(60) }));
    const g = engine.build('worker-1', { phase: 'implement' }).generation;
    expect(g.compressed).not.toEqual([]);
    const d = engine.diff('worker-1', 1, 1);
    expect(d).toEqual({ agentId: 'worker-1', from: 1, to: 1, added: [], dropped: [], compressed: [], kept: g.included, tokenDelta: 0, reason: g.boundary.reason });
  });

  it('[diff-value] the same two generations always give the same diff', () => {
    const { engine } = fourGenerations();
    expect(engine.diff('worker-1', 1, 4)).toEqual(engine.diff('worker-1', 1, 4));
    const back = engine.diff('worker-1', 4, 1);
    const fwd = engine.diff('worker-1', 1, 4);
    expect(back.added.map((e) => e.item.id).sort()).toEqual(fwd.dropped.map((x) => x.entry.item.id).sort());
    expect(back.tokenDelta).toBe(-fwd.tokenDelta);
  });
});
