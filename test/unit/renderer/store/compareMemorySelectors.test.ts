import { describe, expect, it } from 'vitest';
import { comparisonsInitialState } from '../../../../renderer/store/comparisonsSlice';
import {
  cumulativeRows,
  freshness,
  memoryCounts,
  selectChartData,
  selectCompareRunning,
  selectCurrentComparison,
  selectCurrentProgress,
  skillUsers,
} from '../../../../renderer/store/compareMemorySelectors';
import { initialRootState, type RootState } from '../../../../renderer/store/reduce';
import { makeComparison, makeMemoryEntry, makeResult, makeSkills } from '../compareMemoryFixtures';

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

describe('memory and skills selectors', () => {
  it('counts entries per state', () => {
    expect(memoryCounts([makeMemoryEntry('a'), makeMemoryEntry('b', { state: 'verified' }), makeMemoryEntry('c', { state: 'verified' })])).toEqual({ candidate: 1, verified: 2, stale: 0, retired: 0, deleted: 0 });
  });

  it('freshness says stale for a stale entry, else the observation age', () => {
    const day = 86_400_000;
    const at = Date.UTC(2026, 0, 1);
    expect(freshness(makeMemoryEntry('a', { state: 'stale' }), at).level).toBe('stale');
    expect(freshness(makeMemoryEntry('a'), at + 1000)).toEqual({ label: 'observed today', level: 'fresh' });
    expect(freshness(makeMemoryEntry('a'), at + day)).toEqual({ label: 'observed 1 day ago', level: 'fresh' });
    expect(freshness(makeMemoryEntry('a'), at + 45 * day)).toEqual({ label: 'observed 45 days ago', level: 'aging' });
  });

  it('skillUsers maps each skill to the agents whose last request carried it', () => {
    expect(skillUsers(makeSkills({ selected: [{ agentId: 'a', names: ['x', 'y'], skipped: [], errors: [] }, { agentId: 'b', names: ['x'], skipped: [], errors: [] }] }))).toEqual({ x: ['a', 'b'], y: ['a'] });
  });
});
