import { generationOverflow, generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../../engine/Engine';
import type { EngineEvent } from '../../../../engine/EngineEvent';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

function setup() {
  const { engine } = newEngine();
  engine.registerAgent(identity());
  for (const i of taskItems()) engine.addItem(i);
  engine.addItem(item({ id: 'h', kind: 'note', class: 'task_state', source: 'unverified_hypothesis' }));
  engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'FAILED tests/a.spec.ts' }));
  engine.build('worker-1', { phase: 'implement' });
  const events: EngineEvent[] = [];
  engine.on((e) => events.push(e));
  return { engine, events };
}

const summary = (e: EngineEvent) =>
  e.type === 'item.changed' ? `${e.type}:${e.change}:${e.item.id}` : e.type === 'item.added' || e.type === 'memory.candidate' ? `${e.type}:${e.item.id}` : e.type === 'item.removed' ? `${e.type}:${e.itemId}` : e.type;

describe('[engine-events] every mutation announces itself', () => {
  it.each<[string, (e: Engine) => unknown, string[]]>([
    ['addItem', (e) => e.addItem(item({ id: 'new' })), ['item.added:new']],
    ['pin', (e) => e.pin('h'), ['item.changed:pinned:h']],
    ['unpin', (e) => e.unpin('h'), ['item.changed:unpinned:h']],
    ['verify', (e) => e.verify('h'), ['item.changed:verified:h']],
    ['promote to the pool', (e) => e.promote('h', 'pool'), ['item.changed:promoted:h']],
    ['promote to memory', (e) => e.promote('h', 'memory'), ['memory.candidate:h']],
    ['remove', (e) => e.remove('h'), ['item.removed:h']],
    ['a build inside the generation', (e) => e.build('worker-1', { phase: 'implement' }), ['generation.built']],
    // The low-relevance grep arrived before generation 1 and generation 2's pack passes it over too (`[ephemeral-expiry]`).
    ['a build that starts a generation', (e) => e.build('worker-1', { phase: 'verify' }), ['generation.started', 'item.removed:grep', 'generation.built']],
    ['rebuild', (e) => e.rebuild('worker-1'), ['generation.started', 'item.removed:grep', 'generation.built']],
    ['refresh', (e) => e.refresh('worker-1', 'test'), ['item.added:state:worker-1:g1', 'item.removed:grep', 'generation.started', 'generation.built']],
    ['maybeRefresh on a context-limit error', (e) => e.maybeRefresh('worker-1', new ContextLimitError('too long', 'openai')), ['item.added:state:worker-1:g1', 'item.removed:grep', 'generation.started', 'generation.built']],
  ])('[engine-events] %s', (_name, act, expected) => {
    const { engine, events } = setup();
    act(engine);
    expect(events.map(summary)).toEqual(expected);
  });

  it.each<[string, (e: Engine) => unknown]>([
    ['a duplicate item', (e) => e.addItem(item({ id: 'h' }))],
    ['an empty item', (e) => e.addItem(item({ id: 'empty', content: '' }))],
    ['verifying a missing item', (e) => e.verify('missing')],
    ['removing a missing item', (e) => e.remove('missing')],
    ['building an unknown agent', (e) => e.build('ghost', { phase: 'x' })],
  ])('[engine-events] a refused operation (%s) emits nothing', (_name, act) => {
    const { engine, events } = setup();
    expect(() => act(engine)).toThrow();
    expect(events).toEqual([]);
  });

  it('[engine-events] reading emits nothing, and a promotion of a finding that is already one is no change', () => {
    const { engine, events } = setup();
    engine.items();
    engine.item('h');
    engine.generations('worker-1');
    engine.diff('worker-1', 1, 1);
    engine.stats('worker-1');
    engine.addItem(item({ id: 'f', kind: 'finding', class: 'finding' }));
    events.length = 0;
    expect(engine.promote('f', 'pool')).toBe(engine.item('f'));
    expect(events).toEqual([]);
  });

  it('[engine-events] events carry what changed', () => {
    const { engine, events } = setup();
    const added = engine.addItem(item({ id: 'new' }));
    engine.verify('h');
    engine.build('worker-1', { phase: 'verify', input: 'x' });
    const [a, changed, started, expired, built] = events;
    expect(expired).toEqual({ type: 'item.removed', itemId: 'grep' });
    expect(a).toEqual({ type: 'item.added', item: added });
    expect(changed).toMatchObject({ type: 'item.changed', change: 'verified', item: { id: 'h', provenance: { verified: true } } });
    const g = engine.generation('worker-1', 2);
    expect(started).toEqual({
      type: 'generation.started',
      agentId: 'worker-1',
      generation: 2,
      previous: 1,
      boundary: g.boundary,
      text: 'Context refreshed · Generation 1 → 2 · Reason: phase changed: implement → verify',
    });
    expect(built).toEqual({ type: 'generation.built', agentId: 'worker-1', generation: 2, builds: 1, tokens: generationTokens(g), budget: g.budget, overflow: generationOverflow(g), reuse: expect.any(Number), indicators: g.indicators });
  });

  it('[engine-events] the first generation announces itself without a refresh line; listeners can unsubscribe', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    const seen: EngineEvent[] = [];
    const off = engine.on((e) => seen.push(e));
    engine.build('worker-1', { phase: 'implement' });
    expect(seen[0]).toMatchObject({ type: 'generation.started', generation: 1, previous: null, text: 'Generation 1 started', boundary: { kind: 'start', reason: 'first build' } });
    off();
    engine.addItem(item({ id: 'after' }));
    expect(seen).toHaveLength(2);
  });
});
