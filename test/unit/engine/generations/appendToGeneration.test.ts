import { describe, expect, it } from 'vitest';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

/** An agent whose pinned content alone overflows its budget. */
function overflowing() {
  const { engine } = newEngine();
  engine.registerAgent(identity({ budget: 600 }));
  for (const i of taskItems()) engine.addItem(i);
  engine.addItem(item({ id: 'big', kind: 'constraint', class: 'task_state', content: 'rule '.repeat(800), pinned: true }));
  const first = engine.build('worker-1', { phase: 'implement' });
  expect(first.generation.overflow).toBeGreaterThan(0);
  return engine;
}

describe('appending inside a generation', () => {
  it('[overflow-recorded] while pinned content overflows, ordinary arrivals are dropped with a reason instead of growing the overflow', () => {
    const engine = overflowing();
    const before = engine.generation('worker-1', 1).overflow;
    engine.addItem(item({ id: 'f', kind: 'code', class: 'finding' }));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.started).toBe(false);
    expect(r.generation.overflow).toBe(before);
    expect(r.generation.dropped.find((d) => d.item.id === 'f')?.reason).toBe('budget: pinned content already overflows the budget');
  });

  it.each([
    ['mandatory', { mandatory: true }],
    ['pinned', { pinned: true }],
  ])('[pin-never-clipped] a %s item that arrives while the generation overflows still enters the context', (_name, flag) => {
    // Found by these tests: appendToGeneration drops every fresh arrival once the generation
    // overflows, protected ones included, and never looks at them again in that generation.
    const engine = overflowing();
    engine.addItem(item({ id: 'must', kind: 'acceptance', class: 'task_state', content: 'New acceptance: rotate on every use.', agentId: 'user', ...flag }));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.generation.dropped.map((d) => d.item.id)).not.toContain('must');
    expect(r.generation.included.map((e) => e.item.id)).toContain('must');
    expect(r.text).toContain('New acceptance: rotate on every use.');
  });

  it('[boundary-only-evict] [L2-append] an append never reorders, compresses or evicts what was emitted', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 6000, scope: { maxItemTokens: 80 } }));
    for (const i of taskItems()) engine.addItem(i);
    engine.addItem(item({ id: 'old', kind: 'code', class: 'finding', durability: 'transient', content: 'old refresh token code' }));
    const a = engine.build('worker-1', { phase: 'implement' });
    // The generation is updated in place by later builds of it: keep what the first build emitted.
    const first = a.generation.included.map((e) => e.item.id);
    const firstCompressed = structuredClone(a.generation.compressed);
    // A more durable and a much more relevant item arrive: both append after what is there, whole.
    engine.addItem(item({ id: 'durable', kind: 'code', class: 'finding', durability: 'project', content: 'durable refresh token code', relevance: 1, confidence: 1 }));
    engine.addItem(item({ id: 'huge', kind: 'note', class: 'task_state', content: 'my own long note\n'.repeat(40) }));
    const b = engine.build('worker-1', { phase: 'implement' });
    expect(b.started).toBe(false);
    const ids = b.generation.included.map((e) => e.item.id);
    expect(ids.slice(0, first.length)).toEqual(first);
    expect(ids.slice(first.length).sort()).toEqual(['durable', 'huge']);
    expect(b.generation.compressed).toEqual(firstCompressed);
    // The appended item is not clipped inside the generation; the clip waits for the boundary.
    expect(b.generation.included.find((e) => e.item.id === 'huge')!.item.content).toBe(engine.item('huge').content);
    const c = engine.rebuild('worker-1');
    expect(c.generation.compressed.map((x) => x.itemId)).toContain('huge');
  });
});
