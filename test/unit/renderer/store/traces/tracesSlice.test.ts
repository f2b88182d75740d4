import { describe, expect, it } from 'vitest';
import { reduce, initialRootState } from '../../../../../renderer/store/reduce';
import { reduceTraces, tracesInitialState } from '../../../../../renderer/store/traces/tracesSlice';
import { makeTrace, progressEvent, traceImported } from '../../compareMemoryFixtures';

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

describe('root reducer', () => {
  it('routes the new slices and leaves the others untouched', () => {
    const next = reduce(initialRootState, { type: 'event', event: traceImported(makeTrace('tr_a')) });
    expect(next.traces.list).toHaveLength(1);
    expect(next.agents).toBe(initialRootState.agents);
    expect(next.memory).toBe(initialRootState.memory);
  });

  it('a removed trace leaves the list, by this view or by a trace.removed event', () => {
    let s = reduceTraces(tracesInitialState, { type: 'traces.snapshot', traces: [makeTrace('tr_b'), makeTrace('tr_a')] });
    s = reduceTraces(s, { type: 'traces.removing', traceId: 'tr_a' });
    expect(s.removing).toBe('tr_a');
    s = reduceTraces(s, { type: 'traces.removed', traceId: 'tr_a' });
    expect(s).toMatchObject({ removing: null, list: [expect.objectContaining({ id: 'tr_b' })] });
    s = reduceTraces(s, { type: 'event', event: { name: 'trace.removed', payload: { traceId: 'tr_b' } } });
    expect(s.list).toEqual([]);
    expect(reduceTraces(s, { type: 'event', event: { name: 'trace.removed', payload: { traceId: 'tr_b' } } })).toBe(s);
  });
});
