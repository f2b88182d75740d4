import { describe, expect, it } from 'vitest';
import { costUnits, hitRate, relativeChange, sessionStepRows, sessionTotals, stepMatchedChange } from '../../../../renderer/store/sessionFigures';
import { makeLive, makeLiveDetail } from '../sessionFixtures';

describe('session figures', () => {
  it.each([
    { t: { input: 1000, cacheRead: 0, cacheWrite: 0 }, cost: 1000, hit: 0 },
    { t: { input: 0, cacheRead: 1000, cacheWrite: 0 }, cost: 100, hit: 1 },
    { t: { input: 0, cacheRead: 0, cacheWrite: 1000 }, cost: 1250, hit: 0 },
    { t: { input: 6000, cacheRead: 20000, cacheWrite: 4000 }, cost: 6000 + 2000 + 5000, hit: 2 / 3 },
    { t: { input: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0, hit: 0 },
  ])('cost and hit rate of $t', ({ t, cost, hit }) => {
    expect(costUnits(t)).toBeCloseTo(cost, 6);
    expect(hitRate(t)).toBeCloseTo(hit, 6);
  });

  it.each([
    { real: 100, strata: 75, change: -0.25 },
    { real: 100, strata: 150, change: 0.5 },
    { real: 0, strata: 10, change: null },
  ])('Strata relative to the recording: $real → $strata is $change', ({ real, strata, change }) => {
    expect(relativeChange(real, strata)).toBe(change);
  });

  it('step rows put both series side by side, cumulative for tokens, per step for the hit rate', () => {
    const rows = sessionStepRows(makeLiveDetail('ses-1'));
    expect(rows.map((r) => r.step)).toEqual([1, 2, 3]);
    expect(rows.map((r) => r.realPrompt)).toEqual([8_000, 18_000, 30_000]);
    expect(rows.map((r) => r.strataPrompt)).toEqual([6_000, 14_000, 24_000]);
    expect(rows.map((r) => r.realUncached)).toEqual([4_000, 5_000, 6_000]);
    expect(rows.map((r) => r.strataUncached)).toEqual([2_000, 2_500, 3_000]);
    expect(rows[1]?.realHitRate).toBeCloseTo(0.8, 6);
    expect(rows[1]?.strataHitRate).toBeCloseTo(7_000 / 8_000, 6);
  });

  it('a series missing a step (replay trailing, a step without usage) leaves its columns out there', () => {
    const d = makeLiveDetail('ses-1');
    const rows = sessionStepRows({ real: d.real.filter((r) => r.step !== 2), shadow: d.shadow.slice(0, 2) });
    expect(rows).toEqual([
      expect.objectContaining({ step: 1, realPrompt: 8_000, strataPrompt: 6_000 }),
      { step: 2, strataPrompt: 14_000, strataUncached: 2_500, strataHitRate: 7_000 / 8_000 },
      { step: 3, realPrompt: 20_000, realUncached: 5_000, realHitRate: 10_000 / 12_000 },
    ]);
  });

  it('totals: recorded from the provider’s figures, Strata’s with its own figures; null while it replays', () => {
    const { real, strata } = sessionTotals(makeLive('ses-1'));
    expect(real).toEqual({ steps: 3, promptTokens: 30_000, uncached: 6_000, cost: 13_000, hitRate: 2 / 3, prefixReuse: null, neededReferenceRecall: null, generation: null, refreshes: null });
    expect(strata).toMatchObject({ steps: 3, promptTokens: 24_000, uncached: 3_000, cost: 3_000 + 1_900 + 2_500, prefixReuse: 0.92, neededReferenceRecall: 0.75, generation: 2, refreshes: 1 });
    expect(sessionTotals(makeLive('ses-1', {}, null)).strata).toBeNull();
  });

  it('compares Strata with the recording over the steps both hold, so a trailing replay is not counted as a saving', () => {
    const d = makeLiveDetail('ses-1');
    // All three steps: prompt 24,000 vs 30,000; uncached 3,000 vs 6,000; cost 7,400 vs 13,000.
    expect(stepMatchedChange(d)).toEqual({ steps: 3, prompt: -0.2, uncached: -0.5, cost: (7_400 - 13_000) / 13_000 });
    // The replay has done two steps: only steps 1 and 2 are compared (14,000 vs 18,000 prompt tokens).
    const trailing = stepMatchedChange({ real: d.real, shadow: d.shadow.slice(0, 2) });
    expect(trailing.steps).toBe(2);
    expect(trailing.prompt).toBeCloseTo((14_000 - 18_000) / 18_000, 9);
    expect(trailing.uncached).toBeCloseTo((2_500 - 5_000) / 5_000, 9);
    expect(stepMatchedChange({ real: d.real, shadow: [] })).toEqual({ steps: 0, prompt: null, uncached: null, cost: null });
  });
});
