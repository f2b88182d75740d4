import { describe, expect, it } from 'vitest';
import { relativeChange, sessionStepRows, sessionTotals, stepMatchedChange } from '../../../../../renderer/store/sessions/sessionFigures';
import { makeLive, makeLiveDetail } from '../../sessionFixtures';

describe('session figures', () => {
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
    expect(real).toEqual({ steps: 3, promptTokens: 30_000, uncached: 6_000, promptUsd: 0.039, hitRate: 2 / 3, prefixReuse: null, neededReferenceRecall: null, generation: null, refreshes: null });
    expect(strata).toMatchObject({ steps: 3, promptTokens: 24_000, uncached: 3_000, promptUsd: 0.0222, prefixReuse: 0.92, neededReferenceRecall: 0.75, generation: 2, refreshes: 1 });
    // No list price for the model: the host sends null, and the totals say none.
    expect(sessionTotals(makeLive('ses-1', { real: { ...makeLive('ses-1').real, promptUsd: null } })).real.promptUsd).toBeNull();
    expect(sessionTotals(makeLive('ses-1', {}, null)).strata).toBeNull();
  });

  it('compares Strata with the recording over the steps both hold, so a trailing replay is not counted as a saving', () => {
    const d = makeLiveDetail('ses-1');
    // All three steps: prompt 24,000 vs 30,000; uncached 3,000 vs 6,000; prompt dollars (the host's per step) $0.0222 vs $0.039.
    const all = stepMatchedChange(d);
    expect(all).toMatchObject({ steps: 3, prompt: -0.2, uncached: -0.5 });
    expect(all.promptUsd).toBeCloseTo((0.0222 - 0.039) / 0.039, 9);
    // The replay has done two steps: only steps 1 and 2 are compared (14,000 vs 18,000 prompt tokens).
    const trailing = stepMatchedChange({ real: d.real, shadow: d.shadow.slice(0, 2) });
    expect(trailing.steps).toBe(2);
    expect(trailing.prompt).toBeCloseTo((14_000 - 18_000) / 18_000, 9);
    expect(trailing.uncached).toBeCloseTo((2_500 - 5_000) / 5_000, 9);
    expect(trailing.promptUsd).toBeCloseTo((0.01065 + 0.005475 - (0.0201 + 0.00915)) / (0.0201 + 0.00915), 9);
    expect(stepMatchedChange({ real: d.real, shadow: [] })).toEqual({ steps: 0, prompt: null, uncached: null, promptUsd: null });
    // A compared step without a price (no list price for the model) leaves the dollar change out, not a partial sum.
    expect(stepMatchedChange({ real: d.real.map((r, i) => (i === 1 ? { ...r, promptUsd: null } : r)), shadow: d.shadow }).promptUsd).toBeNull();
  });
});
