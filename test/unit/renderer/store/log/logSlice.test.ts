import { describe, expect, it } from 'vitest';
import { logCapacity, logInitialState, reduceLog, type LogState } from '../../../../../renderer/store/log/logSlice';
import { logEvent, makeAgent, makeDetail, makeLogEntry } from '../../fixtures';

const withSeqs = (...seqs: number[]): LogState => ({ entries: seqs.map((s) => makeLogEntry(s)) });
const seqsOf = (s: LogState) => s.entries.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('reduceLog', () => {
  it.each([
    { case: 'appends a live line', held: [1, 2], incoming: [3], expected: [1, 2, 3] },
    { case: 'sorts a line that arrived late', held: [1, 3], incoming: [2], expected: [1, 2, 3] },
    { case: 'merges an out-of-order backlog', held: [2, 5], incoming: [4, 1, 3], expected: [1, 2, 3, 4, 5] },
    { case: 'drops lines it already holds', held: [1, 2, 3], incoming: [2, 3, 4], expected: [1, 2, 3, 4] },
  ])('$case', ({ held, incoming, expected }) => {
    const next = reduceLog(withSeqs(...held), { type: 'agent.detail', detail: makeDetail(makeAgent('a'), incoming.map((s) => makeLogEntry(s))) });
    expect(seqsOf(next)).toEqual(expected);
  });

  it('a live log event is merged by seq', () => {
    const next = reduceLog(withSeqs(1, 3), { type: 'event', event: logEvent(makeLogEntry(2, { message: 'late' })) });
    expect(next.entries.map((e) => [e.seq, e.message])).toEqual([
      [1, 'line 1'],
      [2, 'late'],
      [3, 'line 3'],
    ]);
  });

  it('returns the same state when every incoming line is a duplicate', () => {
    const state = withSeqs(1, 2);
    expect(reduceLog(state, { type: 'event', event: logEvent(makeLogEntry(2, { message: 'again' })) })).toBe(state);
    expect(reduceLog(state, { type: 'agent.detail', detail: makeDetail(makeAgent('a'), []) })).toBe(state);
  });

  it(`is capped at logCapacity (${logCapacity}), keeping the newest`, () => {
    const full = withSeqs(...range(1, logCapacity));
    const next = reduceLog(full, { type: 'event', event: logEvent(makeLogEntry(logCapacity + 1)) });
    expect(next.entries).toHaveLength(logCapacity);
    expect(next.entries[0]?.seq).toBe(2);
    expect(next.entries.at(-1)?.seq).toBe(logCapacity + 1);
  });

  it('a backlog larger than the capacity keeps only the newest lines', () => {
    const backlog = range(1, logCapacity + 20).reverse().map((s) => makeLogEntry(s));
    const next = reduceLog(logInitialState, { type: 'agent.detail', detail: makeDetail(makeAgent('a'), backlog) });
    expect(seqsOf(next)).toEqual(range(21, logCapacity + 20));
  });

  it('ignores actions that carry no log lines', () => {
    const state = withSeqs(1);
    expect(reduceLog(state, { type: 'agents.snapshot', agents: [] })).toBe(state);
    expect(reduceLog(state, { type: 'event', event: { name: 'agent.updated', payload: { agent: makeAgent('a') } } })).toBe(state);
  });
});
