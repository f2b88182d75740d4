import { describe, expect, it } from 'vitest';
import { COMPARISON_MAX_TRACES } from '../../../../../engine/contract';
import { comparisonsInitialState, reduceComparisons } from '../../../../../renderer/store/comparisons/comparisonsSlice';
import { makeComparison, progressEvent } from '../../compareMemoryFixtures';

describe('comparisonsSlice', () => {
  it('a started comparison becomes current; progress events move it forward, never back', () => {
    let s = reduceComparisons(comparisonsInitialState, { type: 'compare.starting' });
    expect(s.starting).toBe(true);
    s = reduceComparisons(s, { type: 'compare.loaded', comparison: makeComparison({ status: 'running', progress: { done: 0, total: 4 }, results: [] }), current: true });
    expect(s).toMatchObject({ starting: false, currentId: 'cmp-1', progress: { 'cmp-1': { done: 0, total: 4, status: 'running' } } });
    s = reduceComparisons(s, { type: 'event', event: progressEvent('cmp-1', 3, 4) });
    expect(s.progress['cmp-1']).toEqual({ done: 3, total: 4, status: 'running' });
    const late = reduceComparisons(s, { type: 'event', event: progressEvent('cmp-1', 1, 4) });
    expect(late).toBe(s);
    s = reduceComparisons(s, { type: 'event', event: progressEvent('cmp-1', 4, 4, 'finished') });
    expect(s.progress['cmp-1']).toEqual({ done: 4, total: 4, status: 'finished' });
    // A running snapshot fetched before the end does not reopen it.
    s = reduceComparisons(s, { type: 'compare.loaded', comparison: makeComparison({ status: 'running', progress: { done: 4, total: 4 } }) });
    expect(s.progress['cmp-1']?.status).toBe('finished');
  });

  it('a loaded comparison that is not the one started here does not become current', () => {
    const s = reduceComparisons({ ...comparisonsInitialState, currentId: 'cmp-2' }, { type: 'compare.loaded', comparison: makeComparison() });
    expect(s.currentId).toBe('cmp-2');
    expect(s.byId['cmp-1']).toBeDefined();
  });

  it('keeps the form and shows a refusal', () => {
    let s = reduceComparisons(comparisonsInitialState, { type: 'compare.form', form: { traceIds: ['tr_a', 'tr_b'], strategies: ['summary'] } });
    expect(s.form).toEqual({ traceIds: ['tr_a', 'tr_b'], strategies: ['summary'], budget: 32_000, ttl: '', model: '', window: '' });
    // The pricing options: the recording's TTL and model unless chosen.
    s = reduceComparisons(s, { type: 'compare.form', form: { ttl: '1h', model: 'claude-opus-4-6' } });
    expect(s.form).toMatchObject({ strategies: ['summary'], ttl: '1h', model: 'claude-opus-4-6' });
    s = reduceComparisons({ ...s, starting: true }, { type: 'compare.error', message: '2 comparisons are running' });
    expect(s).toMatchObject({ starting: false, error: '2 comparisons are running' });
  });
});

describe('comparisonsSlice: trace selection and chart trace', () => {
  it('an imported trace joins the selection once, and not beyond the cap', () => {
    let s = reduceComparisons({ ...comparisonsInitialState, form: { ...comparisonsInitialState.form, traceIds: ['tr_a'] } }, { type: 'compare.addTrace', traceId: 'tr_up' });
    expect(s.form.traceIds).toEqual(['tr_a', 'tr_up']);
    expect(reduceComparisons(s, { type: 'compare.addTrace', traceId: 'tr_a' })).toBe(s);
    const full = Array.from({ length: COMPARISON_MAX_TRACES }, (_, i) => `tr_${i}`);
    s = { ...comparisonsInitialState, form: { ...comparisonsInitialState.form, traceIds: full } };
    expect(reduceComparisons(s, { type: 'compare.addTrace', traceId: 'tr_more' })).toBe(s);
    expect(reduceComparisons({ ...s, form: { ...s.form, traceIds: full.slice(1) } }, { type: 'compare.addTrace', traceId: 'tr_more' }).form.traceIds).toHaveLength(COMPARISON_MAX_TRACES);
  });

  it('keeps the chart trace for the current comparison and resets it when another one becomes current', () => {
    let s = reduceComparisons(comparisonsInitialState, { type: 'compare.loaded', comparison: makeComparison(), current: true });
    s = reduceComparisons(s, { type: 'compare.chartTrace', traceId: 'tr_b' });
    expect(s.chartTraceId).toBe('tr_b');
    expect(reduceComparisons(s, { type: 'compare.chartTrace', traceId: 'tr_b' })).toBe(s);
    // A fresh fetch of the same comparison keeps it; a newly started one starts from its first trace.
    s = reduceComparisons(s, { type: 'compare.loaded', comparison: makeComparison(), current: true });
    expect(s.chartTraceId).toBe('tr_b');
    s = reduceComparisons(s, { type: 'compare.loaded', comparison: makeComparison({ comparisonId: 'cmp-2' }) });
    expect(s.chartTraceId).toBe('tr_b');
    s = reduceComparisons(s, { type: 'compare.loaded', comparison: makeComparison({ comparisonId: 'cmp-2' }), current: true });
    expect(s).toMatchObject({ currentId: 'cmp-2', chartTraceId: null });
  });
});
