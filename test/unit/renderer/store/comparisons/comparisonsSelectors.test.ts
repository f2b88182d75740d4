import { describe, expect, it } from 'vitest';
import {
  allTracesTotals,
  cumulativeRows,
  pickedTraceIds,
  selectChartData,
  selectCompareRunning,
  selectCurrentComparison,
  selectCurrentProgress,
} from '../../../../../renderer/store/comparisons/comparisonsSelectors';
import { comparisonsInitialState } from '../../../../../renderer/store/comparisons/comparisonsSlice';
import { initialRootState, type RootState } from '../../../../../renderer/store/reduce';
import { makeComparison, makeResult, makeTrace, makeTwoTraceComparison } from '../../compareMemoryFixtures';

const withComparison = (over: Partial<RootState['comparisons']>): RootState => ({ ...initialRootState, comparisons: { ...comparisonsInitialState, ...over } });

describe('compare selectors', () => {
  it('cumulativeRows sums each strategy per step, one column per strategy', () => {
    const rows = cumulativeRows([makeResult('t', 'variable', [10, 20, 30]), makeResult('t', 'summary', [5, 5, 5])], (s) => s.promptTokens);
    expect(rows).toEqual([
      { step: 1, variable: 10, summary: 5 },
      { step: 2, variable: 30, summary: 10 },
      { step: 3, variable: 60, summary: 15 },
    ]);
  });

  it('selectChartData gives the cumulative prompt and uncached series of the current comparison, stable while it is the same', () => {
    const s = withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': makeComparison() } });
    const data = selectChartData(s);
    expect(data?.strategies).toEqual(['variable', 'full_history_baseline']);
    expect(data?.prompt.at(-1)).toEqual({ step: 3, variable: 600, full_history_baseline: 750 });
    expect(data?.uncached.at(-1)).toEqual({ step: 3, variable: 600 - 270, full_history_baseline: 750 });
    expect(selectChartData({ ...s })).toBe(data);
    expect(selectChartData(initialRootState)).toBeUndefined();
  });

  it('selectChartData charts the chosen chart trace, else the comparison’s first trace with results', () => {
    const c = makeTwoTraceComparison();
    const first = selectChartData(withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': c } }));
    expect(first?.traceId).toBe('tr_a');
    expect(first?.traceIds).toEqual(['tr_a', 'tr_b']);
    expect(first?.prompt.at(-1)).toEqual({ step: 3, variable: 600, full_history_baseline: 750 });
    const s = withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': c }, chartTraceId: 'tr_b' });
    const second = selectChartData(s);
    expect(second?.traceId).toBe('tr_b');
    expect(second?.results.map((r) => `${r.traceId}/${r.strategy}`)).toEqual(['tr_b/variable', 'tr_b/full_history_baseline']);
    expect(second?.prompt).toEqual([
      { step: 1, variable: 400, full_history_baseline: 400 },
      { step: 2, variable: 500, full_history_baseline: 900 },
    ]);
    expect(second?.uncached.at(-1)).toEqual({ step: 2, variable: 450, full_history_baseline: 900 });
    expect(selectChartData({ ...s })).toBe(second);
    // A chart trace the comparison does not have, or one whose replays all failed: the first trace with results.
    expect(selectChartData(withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': c }, chartTraceId: 'tr_gone' }))?.traceId).toBe('tr_a');
    const aFailed = makeTwoTraceComparison({ results: c.results.filter((r) => r.traceId === 'tr_b') });
    const onlyB = selectChartData(withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': aFailed } }));
    expect(onlyB?.traceId).toBe('tr_b');
    expect(onlyB?.traceIds).toEqual(['tr_b']);
  });

  it('[one-definition] allTracesTotals sums each strategy over the traces as strata compare does: the hit rate of the summed tokens, reuse of the summed bytes after each first step, dollars over the priced traces, recall pooled over the summed references and averaged over the steps that have one, forced re-reads summed', () => {
    const rows = allTracesTotals(makeTwoTraceComparison().results);
    expect(rows.map((r) => r.strategy)).toEqual(['variable', 'full_history_baseline']);
    const [variable, baseline] = rows;
    expect(variable).toEqual({
      strategy: 'variable',
      budget: 32_000,
      traces: 2,
      steps: 5,
      promptTokens: 1100,
      uncachedTokens: 780,
      promptUsd: expect.closeTo(0.002436, 12),
      totalUsd: expect.closeTo(0.002436, 12),
      pricedTraces: 2,
      ttl: '5m: default',
      hitRate: 320 / 1100,
      prefixReuse: expect.closeTo(0.6, 12),
      neededReferenceRecall: 0.5,
      // Pooled over both traces' references (6 + 1 held of 10 + 5 needed), not the mean of their pooled 0.6 and 0.2.
      pooledReferenceRecall: 7 / 15,
      rereadsForced: 5,
      refreshes: 4,
      orphans: 2,
      invalid: 3,
    });
    expect(baseline).toEqual({
      strategy: 'full_history_baseline',
      budget: null,
      traces: 2,
      steps: 5,
      promptTokens: 1650,
      uncachedTokens: 1650,
      promptUsd: expect.closeTo(0.00495, 12),
      totalUsd: expect.closeTo(0.00495, 12),
      pricedTraces: 2,
      ttl: '5m: default',
      hitRate: 0,
      prefixReuse: 0.5,
      neededReferenceRecall: null,
      pooledReferenceRecall: null,
      rereadsForced: 0,
      refreshes: 2,
      orphans: 0,
      invalid: 0,
    });
    expect(allTracesTotals([])).toEqual([]);
  });

  it('allTracesTotals leaves a trace without a list price out of the dollars, says how many are in, and groups the TTLs', () => {
    const [a, b] = makeTwoTraceComparison().results;
    const unpriced = { ...b!, traceId: 'tr_b', strategy: a!.strategy, budget: a!.budget, totals: { ...b!.totals, costUsd: null, cacheTtl: { ttl: '1h' as const, source: 'recording' as const } } };
    const [row] = allTracesTotals([a!, unpriced]);
    expect(row).toMatchObject({ traces: 2, pricedTraces: 1, promptUsd: a!.totals.costUsd!.prompt, ttl: '5m: default ×1; 1h: from the recording ×1' });
    expect(allTracesTotals([unpriced])[0]).toMatchObject({ promptUsd: null, totalUsd: null, pricedTraces: 0 });
  });

  it('allTracesTotals counts only the traces a strategy replayed, and gives zero rates for empty replays', () => {
    const empty = { ...makeResult('tr_c', 'summary', [0]), series: [] };
    expect(allTracesTotals([empty])[0]).toMatchObject({ traces: 1, steps: 1, promptTokens: 0, hitRate: 0, prefixReuse: 0, neededReferenceRecall: null });
  });

  it('pickedTraceIds keeps the selected traces that are listed, in the list’s order', () => {
    const list = [makeTrace('tr_c'), makeTrace('tr_b'), makeTrace('tr_a')];
    expect(pickedTraceIds(list, ['tr_a', 'tr_gone', 'tr_c'])).toEqual(['tr_c', 'tr_a']);
    expect(pickedTraceIds(list, [])).toEqual([]);
  });

  it('progress comes from live events first, else from the DTO; running while starting or running', () => {
    const dto = makeComparison({ status: 'running', progress: { done: 1, total: 2 }, results: [] });
    let s = withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': dto } });
    expect(selectCurrentProgress(s)).toEqual({ done: 1, total: 2, status: 'running' });
    expect(selectCompareRunning(s)).toBe(true);
    s = withComparison({ currentId: 'cmp-1', byId: { 'cmp-1': dto }, progress: { 'cmp-1': { done: 2, total: 2, status: 'finished' } } });
    expect(selectCurrentProgress(s)).toEqual({ done: 2, total: 2, status: 'finished' });
    expect(selectCompareRunning(s)).toBe(false);
    expect(selectCurrentComparison(s)).toBe(dto);
    expect(selectCompareRunning(withComparison({ starting: true }))).toBe(true);
    expect(selectCurrentProgress(initialRootState)).toBeUndefined();
  });
});
