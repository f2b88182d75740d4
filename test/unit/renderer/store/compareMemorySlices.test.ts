import { describe, expect, it } from 'vitest';
import { COMPARISON_MAX_TRACES } from '../../../../engine/contract';
import { comparisonsInitialState, reduceComparisons } from '../../../../renderer/store/comparisons/comparisonsSlice';
import { memoryInitialState, reduceMemory } from '../../../../renderer/store/memory/memorySlice';
import { reduce, initialRootState } from '../../../../renderer/store/reduce';
import { reduceSkills, skillsInitialState } from '../../../../renderer/store/skills/skillsSlice';
import { reduceTraces, tracesInitialState } from '../../../../renderer/store/traces/tracesSlice';
import { makeComparison, makeMemoryEntry, makeSkills, makeTrace, memoryChanged, progressEvent, traceImported } from '../compareMemoryFixtures';

describe('tracesSlice', () => {
  it('takes the listTraces snapshot and keeps a trace announced while it was in flight', () => {
    let s = reduceTraces(tracesInitialState, { type: 'traces.loading' });
    expect(s.status).toBe('loading');
    s = reduceTraces(s, { type: 'event', event: traceImported(makeTrace('tr_new')) });
    s = reduceTraces(s, { type: 'traces.snapshot', traces: [makeTrace('tr_b'), makeTrace('tr_a')] });
    expect(s.status).toBe('ready');
    expect(s.list.map((t) => t.id)).toEqual(['tr_new', 'tr_b', 'tr_a']);
  });

  it('adds an announced trace once, newest first; an event for a known trace changes nothing', () => {
    const s = reduceTraces({ ...tracesInitialState, list: [makeTrace('tr_a')] }, { type: 'event', event: traceImported(makeTrace('tr_b')) });
    expect(s.list.map((t) => t.id)).toEqual(['tr_b', 'tr_a']);
    expect(reduceTraces(s, { type: 'event', event: traceImported(makeTrace('tr_a')) })).toBe(s);
  });

  it('records an import (already imported or not) and clears its error; a failure keeps the list', () => {
    let s = reduceTraces({ ...tracesInitialState, error: 'old' }, { type: 'traces.importing', name: 'x.jsonl' });
    expect(s).toMatchObject({ importing: 'x.jsonl', error: null });
    s = reduceTraces(s, { type: 'traces.imported', trace: makeTrace('tr_x'), alreadyImported: true });
    expect(s).toMatchObject({ importing: null, lastImport: { traceId: 'tr_x', alreadyImported: true } });
    expect(s.list.map((t) => t.id)).toEqual(['tr_x']);
    s = reduceTraces(s, { type: 'traces.error', message: 'bad line 9' });
    expect(s).toMatchObject({ importing: null, error: 'bad line 9' });
    expect(s.list).toHaveLength(1);
  });

  it('ignores other events and actions (same object)', () => {
    expect(reduceTraces(tracesInitialState, { type: 'event', event: progressEvent('cmp-1', 1, 2) })).toBe(tracesInitialState);
    expect(reduceTraces(tracesInitialState, { type: 'tree.filter', text: 'x' })).toBe(tracesInitialState);
  });
});

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

describe('memorySlice', () => {
  it('applies memory.changed entries by revision: newer replaces, older is dropped, new ones go first', () => {
    let s = reduceMemory(memoryInitialState, { type: 'memory.snapshot', entries: [makeMemoryEntry('m1', { revision: 2 })] });
    s = reduceMemory(s, { type: 'event', event: memoryChanged('proposed', makeMemoryEntry('m2')) });
    expect(s.entries.map((e) => e.id)).toEqual(['m2', 'm1']);
    const stale = reduceMemory(s, { type: 'event', event: memoryChanged('verified', makeMemoryEntry('m1', { revision: 1, state: 'verified' })) });
    expect(stale).toBe(s);
    s = reduceMemory(s, { type: 'event', event: memoryChanged('retired', makeMemoryEntry('m1', { revision: 3, state: 'retired' })) });
    expect(s.entries.find((e) => e.id === 'm1')).toMatchObject({ revision: 3, state: 'retired' });
  });

  it('a snapshot older than a live event keeps the newer revision', () => {
    let s = reduceMemory(memoryInitialState, { type: 'event', event: memoryChanged('verified', makeMemoryEntry('m1', { revision: 2, state: 'verified' })) });
    s = reduceMemory(s, { type: 'memory.snapshot', entries: [makeMemoryEntry('m1', { revision: 1 })] });
    expect(s.entries).toEqual([expect.objectContaining({ id: 'm1', revision: 2 })]);
  });

  it('a purge event names no entry and changes nothing (the controller lists again)', () => {
    const s = reduceMemory({ ...memoryInitialState, entries: [makeMemoryEntry('m1')] }, { type: 'event', event: memoryChanged('purged', null) });
    expect(s.entries).toHaveLength(1);
  });

  it('tracks a change in flight and its conflict by entry; a promotion is busy under its item id', () => {
    let s = reduceMemory({ ...memoryInitialState, entries: [makeMemoryEntry('m1')] }, { type: 'memory.changing', id: 'm1' });
    expect(s.busy).toEqual({ m1: true });
    s = reduceMemory(s, { type: 'memory.entryError', id: 'm1', code: 'conflict', message: 'revision 1 is stale' });
    expect(s).toMatchObject({ busy: {}, entryError: { id: 'm1', code: 'conflict' } });
    s = reduceMemory(s, { type: 'memory.changing', id: 'm1' });
    expect(s.entryError).toBeNull();
    s = reduceMemory(s, { type: 'memory.changing', id: 'item-m9' });
    s = reduceMemory(s, { type: 'memory.entry', entry: makeMemoryEntry('m9') });
    expect(s.busy).toEqual({ m1: true });
  });

  it('records the purge report and dismisses it', () => {
    let s = reduceMemory(memoryInitialState, { type: 'memory.purging' });
    expect(s.purging).toBe(true);
    const report = { deleted: 2, recalledCopiesDeleted: 1, vacuumed: true, walTruncated: true, residual: 'cannot reach backups' };
    s = reduceMemory(s, { type: 'memory.purged', report });
    expect(s).toMatchObject({ purging: false, purgeReport: report });
    expect(reduceMemory(s, { type: 'memory.dismissReport' }).purgeReport).toBeNull();
  });
});

describe('skillsSlice', () => {
  it('loads, takes the snapshot, and keeps the data on a failed reload', () => {
    let s = reduceSkills(skillsInitialState, { type: 'skills.loading' });
    s = reduceSkills(s, { type: 'skills.snapshot', skills: makeSkills() });
    expect(s).toMatchObject({ status: 'ready', data: { loaded: [{ name: 'git-hygiene' }, { name: 'ts-conventions' }] } });
    s = reduceSkills(s, { type: 'skills.error', message: 'host closed' });
    expect(s).toMatchObject({ status: 'failed', error: 'host closed' });
    expect(s.data).not.toBeNull();
  });
});

describe('root reducer', () => {
  it('routes the new slices and leaves the others untouched', () => {
    const next = reduce(initialRootState, { type: 'event', event: traceImported(makeTrace('tr_a')) });
    expect(next.traces.list).toHaveLength(1);
    expect(next.agents).toBe(initialRootState.agents);
    expect(next.memory).toBe(initialRootState.memory);
  });
});
