import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';
import { indicatorThresholds } from '../../../../engine/refresh/indicators';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';

function setup(over: { autoRefresh?: boolean; budget?: number } = {}) {
  const { engine, clock } = newEngine(over.autoRefresh === undefined ? {} : { autoRefresh: over.autoRefresh });
  engine.registerAgent(identity({ budget: over.budget ?? 4000 }));
  for (const i of taskItems()) engine.addItem(i);
  engine.addItem(item({ id: 'arch', kind: 'architecture', class: 'project_memory', content: 'Tokens live in Postgres.' }));
  engine.addItem(item({ id: 'f1', kind: 'code', class: 'finding' }));
  engine.addItem(item({ id: 'grep', kind: 'tool_output', class: 'ephemeral', content: 'FAILED tests/refresh.spec.ts: expected 200, got 401', relevance: 1, confidence: 1 }));
  return { engine, clock };
}

describe('[refresh-misses-dynamic] a refresh misses the cache only for L2/L3', () => {
  it.each([
    ['refresh', (e: ReturnType<typeof setup>['engine']) => e.refresh('worker-1', 'test').result],
    ['context-limit refresh', (e: ReturnType<typeof setup>['engine']) => e.maybeRefresh('worker-1', new ContextLimitError('prompt is too long', 'anthropic'))!.result],
    ['manual rebuild', (e: ReturnType<typeof setup>['engine']) => e.rebuild('worker-1', 'operator asked')],
    ['phase change', (e: ReturnType<typeof setup>['engine']) => e.build('worker-1', { phase: 'verify' })],
  ])('[refresh-misses-dynamic] %s: L0+L1 bytes and prefix hash stay, the dynamic part changes', (_name, act) => {
    const { engine, clock } = setup();
    const a = engine.build('worker-1', { phase: 'implement', input: 'turn 1' });
    clock.advance(3600_000);
    const b = act(engine);
    expect(b.started).toBe(true);
    expect(b.generation.number).toBe(2);
    expect(b.prompt.static).toBe(a.prompt.static);
    expect(b.generation.prefixHash).toBe(a.generation.prefixHash);
    expect(b.prompt.dynamic).not.toBe(a.prompt.dynamic);
    // So the whole static part is reused.
    expect(b.reuse).toBeGreaterThanOrEqual(Buffer.byteLength(b.prompt.static) / Buffer.byteLength(b.text));
  });

  it('[refresh-misses-dynamic] when L1 does change (a pin), the static part changes with it', () => {
    const { engine } = setup();
    const a = engine.build('worker-1', { phase: 'implement' });
    engine.pin('f1');
    const b = engine.build('worker-1', { phase: 'implement' });
    expect(b.started).toBe(true);
    expect(b.prompt.layers.L0).toBe(a.prompt.layers.L0);
    expect(b.prompt.static).not.toBe(a.prompt.static);
    expect(b.prompt.layers.L1).toContain(engine.item('f1').content);
  });
});

describe('an indicator-triggered refresh', () => {
  it('[class-survival] [auto-refresh-rule] runs the refresh pipeline too: the agent\'s ephemeral items leave the pool', () => {
    // DESIGN.md: on indicators (autoRefresh on) the same pipeline runs as on a context-limit error:
    // extract durable state -> persist findings -> drop ephemeral/history -> new generation.
    const budget = 2000;
    const { engine } = setup({ autoRefresh: true, budget });
    engine.build('worker-1', { phase: 'implement' });
    for (const n of [1, 2, 3]) engine.addItem(item({ id: `grep-${n}`, kind: 'tool_output', class: 'ephemeral', signature: 'grep token', content: `FAILED grep ${n}` }));
    for (let k = 0; generationTokens(engine.generations('worker-1').at(-1)!) / budget < indicatorThresholds.utilization; k++) {
      engine.addItem(item({ id: `note-${k}`, kind: 'finding', class: 'finding', content: `note ${k} `.repeat(4) }));
      expect(engine.build('worker-1', { phase: 'implement' }).started).toBe(false);
    }
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.generation.boundary.kind).toBe('refresh');
    const pool = engine.items().map((i) => i.id);
    for (const id of ['grep', 'grep-1', 'grep-2', 'grep-3']) expect(pool).not.toContain(id);
    expect(engine.archived().map((i) => i.id)).toEqual(expect.arrayContaining(['grep', 'grep-1', 'grep-2', 'grep-3']));
  });
});
