import { generationOverflow, generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import { pack, type PackOptions } from '../../../../engine/pack/pack';
import type { ScoredItem } from '../../../../engine/retrieve/retrieve';
import type { ScoreParts } from '../../../../engine/retrieve/score';
import { identity, item, newEngine, T0, taskItems } from '../../../support/engineFixtures';
import { quarter } from '../../../support/enginePools';

const zero: ScoreParts = { keywords: 0, files: 0, symbols: 0, recency: 0, confidence: 0, durability: 0, role: 0, phase: 0, failures: 0, task: 0, prior: 0 };
const scored = (over: Partial<ItemInput>, score: number): ScoredItem => ({
  item: createItem({ id: 'x', kind: 'note', class: 'finding', content: 'x', source: 'worker_finding', agentId: 'a', taskId: 't', at: T0, ...over }),
  score,
  parts: { ...zero, keywords: score },
});
const opts = (over: Partial<PackOptions> = {}): PackOptions => ({
  budget: 10_000,
  target: 9_000,
  minOptionalScore: 0.3,
  compressMinTokens: 96,
  order: 'score',
  tokens: (i: ContextItem) => quarter(i.content),
  countText: quarter,
  ...over,
});
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i}: FAILED src/auth/refresh.ts expected 200 got 401`).join('\n');

describe('pack', () => {
  it.each([
    ['tier 4 below the threshold', { kind: 'note' as const }, 0.29, 'dropped'],
    ['tier 4 at the threshold', { kind: 'note' as const }, 0.3, 'included'],
    ['tier 2 far below it', { kind: 'code' as const }, 0.01, 'included'],
    ['tier 3 far below it', { kind: 'report' as const }, 0.01, 'included'],
    ['unverified finding (tier 4) below it', { kind: 'finding' as const }, 0.1, 'dropped'],
  ])('[low-relevance-dropped] %s: %s with plenty of room', (_name, over, score, outcome) => {
    const r = pack([scored(over, score)], opts());
    expect(r.included.length === 1 ? 'included' : 'dropped').toBe(outcome);
    if (outcome === 'dropped') expect(r.dropped[0]).toMatchObject({ reason: 'low relevance: below 0.3 for optional material', score });
  });

  it('[low-relevance-dropped] chronological packing (full_history) has no relevance threshold', () => {
    expect(pack([scored({ kind: 'note' }, 0.01)], opts({ order: 'recent' })).included).toHaveLength(1);
  });

  it('[low-relevance-dropped] the threshold is the engine option minOptionalScore (0.3 by default)', () => {
    const build = (minOptionalScore?: number) => {
      const { engine } = newEngine(minOptionalScore === undefined ? {} : { minOptionalScore });
      engine.registerAgent(identity({ budget: 20_000 }));
      engine.addItem(item({ id: 'aside', kind: 'note', class: 'ephemeral', content: 'The coffee machine is broken.', files: [], symbols: [], taskId: 'x', confidence: 0.2 }));
      return engine.build('worker-1', { phase: 'implement' }).generation;
    };
    const dflt = build();
    expect(dflt.dropped.map((d) => d.reason)).toEqual(['low relevance: below 0.3 for optional material']);
    expect(generationTokens(dflt)).toBeLessThan(dflt.budget / 10);
    expect(build(0).included.map((e) => e.item.id)).toEqual(['aside']);
  });

  it('[low-relevance-dropped] irrelevant arrivals from others stay out inside a generation too; the agent\'s own do not', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 20_000 }));
    engine.build('worker-1', { phase: 'implement' });
    const noise = { kind: 'note' as const, class: 'ephemeral' as const, content: 'The coffee machine is broken.', files: [], symbols: [], taskId: 'x', confidence: 0.2 };
    engine.addItem(item({ ...noise, id: 'theirs', agentId: 'other' }));
    engine.addItem(item({ ...noise, id: 'mine', content: 'I had a look at the coffee machine.' }));
    const g = engine.build('worker-1', { phase: 'implement' }).generation;
    expect(g.included.map((e) => e.item.id)).toEqual(['mine']);
    expect(g.dropped.find((d) => d.item.id === 'theirs')?.reason).toMatch(/^low relevance/);
  });

  it('[low-priority-dropped] over the target, tier 1-3 items are compressed when room remains and tier 4 is dropped', () => {
    const items = [
      scored({ id: 'a-code', kind: 'code', content: lines(20, 'code') }, 0.9),
      scored({ id: 'b-report', kind: 'report', content: lines(60, 'report') }, 0.8),
      scored({ id: 'c-note', kind: 'note', content: lines(60, 'note') }, 0.95),
    ];
    const r = pack(items, opts({ target: 700 }));
    const code = r.included.find((e) => e.item.id === 'a-code')!;
    const report = r.included.find((e) => e.item.id === 'b-report')!;
    expect(code.item.content).toBe(items[0]!.item.content);
    expect(report.why).toMatch(/; compressed to fit$/);
    expect(report.item.content).toMatch(/omitted by compression/);
    expect(r.compressed).toEqual([{ itemId: 'b-report', from: quarter(items[1]!.item.content), to: report.tokens, method: 'extract' }]);
    expect(r.dropped).toEqual([{ item: items[2]!.item, tokens: quarter(items[2]!.item.content), score: items[2]!.score, reason: expect.stringMatching(/^budget: (needs \d+ tokens, \d+ left of 700|the target of 700 tokens is full)$/) }]);
    expect(r.tokens).toBeLessThanOrEqual(700);
  });

  it('[low-priority-dropped] a tier 1-3 item is dropped, not squeezed, when less than compressMinTokens remain', () => {
    const items = [scored({ id: 'a', kind: 'code', content: lines(40, 'a') }, 0.9), scored({ id: 'b', kind: 'code', content: lines(40, 'b') }, 0.8)];
    const first = quarter(items[0]!.item.content);
    const r = pack(items, opts({ target: first + 96 + 31 }));
    expect(r.included.map((e) => e.item.id)).toEqual(['a']);
    expect(r.dropped[0]).toMatchObject({ item: { id: 'b' }, reason: `budget: needs ${quarter(items[1]!.item.content)} tokens, 127 left of ${first + 127}` });
    const roomy = pack(items, opts({ target: first + 96 + 32 }));
    expect(roomy.included.map((e) => e.item.id)).toEqual(['a', 'b']);
    expect(roomy.compressed.map((c) => c.itemId)).toEqual(['b']);
  });

  it('[low-priority-dropped] [overflow-recorded] pinned items count first; what does not fit after them is dropped', () => {
    const pinned = scored({ id: 'pin', kind: 'constraint', pinned: true, content: 'p'.repeat(4000) }, 0);
    const r = pack([scored({ id: 'code', kind: 'code', content: 'c'.repeat(40) }, 1), pinned], opts({ budget: 800, target: 700 }));
    expect(r.included.map((e) => e.item.id)).toEqual(['pin']);
    expect(r.overflow).toBe(1000 - 800);
    expect(r.dropped[0]!.reason).toBe('budget: the target of 700 tokens is full');
  });
});

describe('the budget, not the window', () => {
  it('[budget-not-window] a 200k-window model with a 4k budget never gets more than 4k tokens', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ model: 'claude-sonnet-4-5', budget: 4000 }));
    for (const i of taskItems()) engine.addItem(i);
    // About 150k tokens of relevant material: far more than the budget, far less than the window.
    for (let i = 0; i < 300; i++) {
      engine.addItem(item({ id: `code-${i}`, kind: i % 2 ? 'code' : 'failure', class: 'finding', content: `refresh token rotation in src/auth/refresh.ts step ${i} `.repeat(40), files: ['src/auth/refresh.ts'] }));
    }
    let max = 0;
    for (let turn = 0; turn < 30; turn++) {
      engine.addItem(item({ id: `turn-${turn}`, kind: 'tool_output', class: 'ephemeral', content: `turn ${turn} output `.repeat(30) }));
      const r = engine.build('worker-1', { phase: 'implement', files: ['src/auth/refresh.ts'], input: `turn ${turn}` });
      expect(r.generation.budget).toBe(4000);
      expect(generationOverflow(r.generation)).toBe(0);
      expect(quarter(r.text)).toBeLessThanOrEqual(4000);
      max = Math.max(max, generationTokens(r.generation));
    }
    expect(max).toBeLessThanOrEqual(4000);
    expect(max).toBeGreaterThan(4000 * 0.5);
  });

  it.each([
    ['variable', 4000],
    ['full_history', 4000],
    ['summary', 4000],
    ['role_optimized', 4000],
    ['aggressive_refresh', 2400],
  ] as const)('[budget-not-window] %s packs into %d of a 4000 budget', (strategy, effective) => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 4000 }), strategy);
    for (let i = 0; i < 100; i++) engine.addItem(item({ id: `f${i}`, class: 'task_state', kind: 'code', content: `refresh token ${i} `.repeat(50), phase: 'implement' }));
    const g = engine.build('worker-1', { phase: 'implement' }).generation;
    expect(g.budget).toBe(effective);
    expect(generationTokens(g)).toBeLessThanOrEqual(effective);
    expect(generationTokens(g)).toBeGreaterThan(effective * 0.5);
  });
});

describe('tokens within the budget', () => {
  it('[tokens-within-budget] appending fills up to the budget, never past it, over a long run', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 1500 }));
    for (const i of taskItems()) engine.addItem(i);
    let atLeast90 = 0;
    for (let k = 0; k < 120; k++) {
      engine.addItem(item({ id: `own${k}`, kind: 'finding', class: 'finding', content: 'x'.repeat(20 + ((k * 37) % 200)) }));
      const r = engine.build('worker-1', { phase: 'implement', input: k % 3 ? '' : 'run the tests again please' });
      expect(generationTokens(r.generation)).toBeLessThanOrEqual(1500);
      expect(quarter(r.text)).toBeLessThanOrEqual(1500);
      if (generationTokens(r.generation) > 1350) atLeast90++;
    }
    expect(atLeast90).toBeGreaterThan(0);
  });

  it('[tokens-within-budget] the status line is counted: a long phase name does not push the prompt past the budget', () => {
    // The L3 reserve is a fixed 24-token allowance for `Generation N · P% of budget · phase X`;
    // a phase name longer than that allowance makes the sent prompt larger than the recorded tokens.
    const phase = 'p'.repeat(300);
    const { engine } = newEngine();
    engine.registerAgent(identity({ budget: 1200 }));
    for (const i of taskItems()) engine.addItem(i);
    for (let k = 0; k < 60; k++) {
      engine.addItem(item({ id: `o${k}`, kind: 'finding', class: 'finding', content: 'x'.repeat(10 + ((k * 37) % 90)) }));
      const r = engine.build('worker-1', { phase });
      expect(quarter(r.text), `build ${k}`).toBeLessThanOrEqual(r.generation.budget + generationOverflow(r.generation));
      expect(quarter(r.text), `build ${k}: recorded tokens must cover the prompt`).toBeLessThanOrEqual(generationTokens(r.generation));
    }
  });
});
