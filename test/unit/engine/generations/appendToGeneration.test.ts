import { generationOverflow } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

/** An agent whose pinned content alone overflows its budget. */
function overflowing() {
  const { engine } = newEngine();
  engine.registerAgent(identity({ budget: 600 }));
  for (const i of taskItems()) engine.addItem(i);
  engine.addItem(item({ id: 'big', kind: 'constraint', class: 'task_state', content: 'rule '.repeat(800), pinned: true }));
  const first = engine.build('worker-1', { phase: 'implement' });
  expect(generationOverflow(first.generation)).toBeGreaterThan(0);
  return engine;
}

describe('appending inside a generation', () => {
  it('[overflow-recorded] while pinned content overflows, ordinary arrivals are dropped with a reason instead of growing the overflow', () => {
    const engine = overflowing();
    const before = generationOverflow(engine.generation('worker-1', 1));
    engine.addItem(item({ id: 'f', kind: 'code', class: 'finding' }));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.started).toBe(false);
    expect(generationOverflow(r.generation)).toBe(before);
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
    const firstText = a.text.slice(0, a.text.indexOf('</context>'));
    // A more durable and a much more relevant item arrive: both append after what is there.
    engine.addItem(item({ id: 'durable', kind: 'code', class: 'finding', durability: 'project', content: 'durable refresh token code', relevance: 1, confidence: 1 }));
    engine.addItem(item({ id: 'huge', kind: 'note', class: 'task_state', content: 'my own long note\n'.repeat(40) }));
    const b = engine.build('worker-1', { phase: 'implement' });
    expect(b.started).toBe(false);
    expect(b.text.startsWith(firstText)).toBe(true);
    const ids = b.generation.included.map((e) => e.item.id);
    expect(ids.slice(0, first.length)).toEqual(first);
    expect(ids.slice(first.length).sort()).toEqual(['durable', 'huge']);
    // What was emitted is not compressed again; the oversized arrival itself enters clipped (`[scope-clip]`).
    expect(b.generation.compressed.slice(0, firstCompressed.length)).toEqual(firstCompressed);
    expect(b.generation.compressed.slice(firstCompressed.length).map((x) => x.itemId)).toEqual(['huge']);
  });

  it('[scope-clip] [rebuild-keeps-prefix] an oversized arrival appends clipped, with the bytes a fresh pack gives it, so a rebuild keeps it in place', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 6000, scope: { maxItemTokens: 80 } }));
    for (const i of taskItems()) engine.addItem(i);
    engine.build('worker-1', { phase: 'implement' });
    const note = 'my own long note about the refresh token rotation\n'.repeat(40);
    engine.addItem(item({ id: 'huge', kind: 'note', class: 'task_state', content: note, agentId: 'worker-1' }));
    const b = engine.build('worker-1', { phase: 'implement' });
    expect(b.started).toBe(false);
    const appended = b.generation.included.find((e) => e.item.id === 'huge')!;
    expect(appended.item.content).toMatch(/\[… \d+ tokens clipped …\]/);
    expect(appended.tokens).toBeLessThanOrEqual(80);
    expect(appended.why).toMatch(/clipped to \d+ tokens/);
    // The pool keeps the whole note; only what the agent is shown is clipped.
    expect(engine.item('huge').content).toBe(note);
    const shown = b.text.slice(0, b.text.indexOf('</context>'));
    const c = engine.rebuild('worker-1');
    expect(c.started).toBe(true);
    const rebuilt = c.generation.included.find((e) => e.item.id === 'huge')!;
    expect(rebuilt.item.content).toBe(appended.item.content);
    expect(c.text.startsWith(shown)).toBe(true);
  });

  it('[scope-clip] [pin-never-clipped] a pinned or mandatory arrival appends whole', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 6000, scope: { maxItemTokens: 80 } }));
    for (const i of taskItems()) engine.addItem(i);
    engine.build('worker-1', { phase: 'implement' });
    const rule = 'never log the refresh token\n'.repeat(30);
    engine.addItem(item({ id: 'rule', kind: 'constraint', class: 'task_state', content: rule, agentId: 'user', mandatory: true }));
    const b = engine.build('worker-1', { phase: 'implement' });
    expect(b.started).toBe(false);
    expect(b.generation.included.find((e) => e.item.id === 'rule')!.item.content).toBe(rule);
    expect(b.generation.compressed.map((x) => x.itemId)).not.toContain('rule');
  });
});
