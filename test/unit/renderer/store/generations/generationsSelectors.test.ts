import { describe, expect, it } from 'vitest';
import {
  compositionByClass,
  includedByLayer,
  layerShares,
  selectGenerationNumbers,
  selectTimeline,
} from '../../../../../renderer/store/generations/generationsSelectors';
import { initialRootState, reduce, type RootState } from '../../../../../renderer/store/reduce';
import { generationStarted, makeGeneration, makeSummary } from '../../generationFixtures';

const withGenerations = (): RootState => {
  let s = reduce(initialRootState, { type: 'agent.select', agentId: 'a' });
  s = reduce(s, { type: 'generations.list', agentId: 'a', generations: [makeSummary('a', 1), makeSummary('a', 2)] });
  return s;
};

describe('generations selectors', () => {
  it('layerShares: the four layers against the budget, or the total when it overflows', () => {
    const g = makeGeneration('a', 1);
    expect(layerShares(g).map((l) => [l.layer, l.tokens, l.share, l.items])).toEqual([
      ['L0', 50, 0.05, 0],
      ['L1', 40, 0.04, 1],
      ['L2', 420, 0.42, 2],
      ['L3', 10, 0.01, 0],
    ]);
    const over = layerShares({ ...g, budget: 100 });
    expect(over.reduce((n, l) => n + l.share, 0)).toBeCloseTo(1);
  });

  it('compositionByClass sums included and dropped tokens per class, leaving out empty classes', () => {
    expect(compositionByClass(makeGeneration('a', 1))).toEqual([
      { class: 'task_state', included: 40, dropped: 0 },
      { class: 'finding', included: 300, dropped: 800 },
      { class: 'ephemeral', included: 120, dropped: 0 },
    ]);
  });

  it('includedByLayer groups entries in layer order', () => {
    const by = includedByLayer(makeGeneration('a', 1));
    expect(by.L1.map((e) => e.item.id)).toEqual(['constraint:a']);
    expect(by.L2.map((e) => e.item.id)).toEqual(['finding:1', 'finding:2']);
    expect(by.L0).toEqual([]);
  });

  it('the timeline merges the list with announced generations and writes the refresh line', () => {
    let s = withGenerations();
    expect(selectTimeline(s).map((e) => e.text)).toEqual(['Generation 1 · first build', 'Context refreshed · Generation 1 → 2 · Reason: context limit']);
    s = reduce(s, { type: 'event', event: generationStarted('a', 3, 'manual refresh by an operator') });
    const t = selectTimeline(s);
    expect(t.map((e) => [e.generation, e.kind, e.reason])).toEqual([
      [1, 'start', 'first build'],
      [2, 'refresh', 'context limit'],
      [3, 'refresh', 'manual refresh by an operator'],
    ]);
    expect(t[2]?.text).toBe('Context refreshed · Generation 2 → 3 · Reason: manual refresh by an operator');
    expect(selectTimeline(s)).toBe(t);
    expect(selectGenerationNumbers(s)).toEqual([3, 2, 1]);
  });
});
