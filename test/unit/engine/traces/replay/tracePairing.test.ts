/**
 * The live trace-to-conversation pairing (`walkTrace` + `transcriptVisitor`, what the replays and
 * peers send), cut into ContextManager groups by test/support/traceGroups.ts: every case is
 * appended to a real manager, whose own checks refuse a malformed group.
 */
import { describe, expect, it } from 'vitest';
import { ContextManager } from '../../../../../engine/conversation/ContextManager';
import type { GroupInput } from '../../../../../engine/conversation/readGroup';
import { manualClock } from '../../../../../engine/ports/Clock';
import { sequentialIds } from '../../../../../engine/ports/IdSource';
import { NO_RESULT_RECORDED } from '../../../../../engine/traces/replay/transcript';
import type { TraceEvent } from '../../../../../engine/traces/TraceEvent';
import { traceGroups, type TraceGroups } from '../../../../support/traceGroups';
import { expectValid, wordTokenizer } from '../../conversation/core/conversationFixtures';

const source = { file: 'made-up.jsonl', line: 1 };
const userIn = (text: string): TraceEvent => ({ type: 'user_input', text, source });
const say = (text: string, step?: number, agentId?: string): TraceEvent => ({ type: 'assistant_text', text, ...(step === undefined ? {} : { step }), ...(agentId ? { agentId } : {}), source });
const call = (callId: string, step?: number): TraceEvent => ({ type: 'tool_call', callId, name: 'Read', arguments: `{"id":"${callId}"}`, ...(step === undefined ? {} : { step }), source });
const result = (callId: string, content = `out ${callId}`, isError = false): TraceEvent => ({ type: 'tool_result', callId, content, isError, source });

const NONE: TraceGroups['repairs'] = { unmatchedResults: 0, duplicates: 0, reorderedResults: 0, subagentEvents: 0, standInResults: 0, lateResults: 0, droppedLeading: 0 };

/** Groups as compact tuples: `user:text`, or `assistant:text[calls] -> results`. */
function summary(groups: GroupInput[]): string[] {
  return groups.map((g) => {
    const [head, ...rest] = g;
    if (head?.role === 'user') return `user:${head.content}`;
    if (head?.role !== 'assistant') return '?';
    const results = rest.map((r) => (r.role === 'tool' ? `${r.toolCallId}=${r.content}${r.isError ? '!' : ''}` : '?'));
    return `assistant:${head.content}[${head.toolCalls.map((c) => c.id).join(',')}] -> ${results.join(' ')}`;
  });
}

/** Appends the groups to a fresh manager, one turn per user message: the manager's own checks refuse any malformed group. */
function replay(groups: GroupInput[]): ContextManager {
  const m = new ContextManager('You replay traces.', { tokenizer: wordTokenizer, ids: sequentialIds(), clock: manualClock(0) });
  let lease = m.beginTurn();
  groups.forEach((g, i) => {
    if (i > 0 && g[0]?.role === 'user') lease = m.beginTurn();
    m.appendTurn(lease, g);
    expectValid(m);
  });
  return m;
}

describe('[group-atomic] [no-orphans] the live pairing of a trace into conversation groups', () => {
  it('[group-atomic] one response split over records (same step, results in between) becomes one assistant message with all its calls and results', () => {
    const { groups, repairs } = traceGroups([userIn('go'), say('Reading.', 0), call('a', 0), result('a'), call('b', 0), result('b'), say('Both read.', 1)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:Reading.[a,b] -> a=out a b=out b', 'assistant:Both read.[] -> ']);
    expect(repairs).toEqual(NONE);
    replay(groups);
  });

  it('[no-orphans] a call never answered gets a stand-in error result, counted, before the next request', () => {
    const { groups, repairs } = traceGroups([userIn('go'), call('a', 0), call('b', 0), result('b'), userIn('stop'), call('c', 1)]);
    expect(summary(groups)).toEqual(['user:go', `assistant:[a,b] -> b=out b a=${NO_RESULT_RECORDED}!`, 'user:stop', `assistant:[c] -> c=${NO_RESULT_RECORDED}!`]);
    expect(repairs).toEqual({ ...NONE, standInResults: 2 });
    replay(groups);
  });

  it('[no-orphans] a result whose call never comes is left out and counted', () => {
    const { groups, repairs } = traceGroups([userIn('go'), call('a', 0), result('a'), result('zzz-never-called'), say('done', 1)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:[a] -> a=out a', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, unmatchedResults: 1 });
    replay(groups);
  });

  it('[no-orphans] a result recorded after its call got a stand-in takes the stand-in\'s place', () => {
    const { groups, repairs } = traceGroups([userIn('go'), call('a', 0), call('b', 1), result('b'), result('a', 'late a'), say('done', 2)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:[a] -> a=late a', 'assistant:[b] -> b=out b', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, standInResults: 1, lateResults: 1 });
    replay(groups);
  });

  it('[group-atomic] a second result for a call and a reused call id are left out as duplicates', () => {
    const { groups, repairs } = traceGroups([userIn('go'), call('a', 0), result('a', 'first'), result('a', 'again'), call('b', 1), result('b'), call('a', 2), say('done', 3)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:[a] -> a=first', 'assistant:[b] -> b=out b', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, duplicates: 2 });
    replay(groups);
  });

  it('[group-atomic] a result recorded before its call waits for the call and is attached (counted)', () => {
    const { groups, repairs } = traceGroups([userIn('go'), result('a', 'early'), say('Now calling.', 0), call('a', 0), say('done', 1)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:Now calling.[a] -> a=early', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, reorderedResults: 1 });
    replay(groups);
  });

  it('[provider-valid] assistant groups before the first user message are left out, counted, never invented around', () => {
    const { groups, repairs } = traceGroups([say('hello?', 0), call('a', 0), result('a'), say('still nobody', 1), userIn('hi'), say('hi!', 2)]);
    expect(summary(groups)).toEqual(['user:hi', 'assistant:hi![] -> ']);
    expect(repairs).toEqual({ ...NONE, droppedLeading: 2 });
    replay(groups);
  });

  it('[group-atomic] blank user text is skipped; subagent events stay out of the main thread and are counted', () => {
    const events: TraceEvent[] = [
      userIn('  \n'),
      userIn('explore'),
      call('spawn', 0),
      { type: 'subagent_spawn', agentId: 'ag', source },
      { type: 'user_input', text: 'look', agentId: 'ag', source },
      say('found', 1, 'ag'),
      { type: 'subagent_return', agentId: 'ag', source },
      result('spawn', 'found'),
      say('done', 2),
    ];
    const { groups, repairs } = traceGroups(events);
    expect(summary(groups)).toEqual(['user:explore', 'assistant:[spawn] -> spawn=found', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, subagentEvents: 4 });
    replay(groups);
  });

  it('keeps error flags and leaves the input events untouched', () => {
    const events = [userIn('go'), call('a', 0), result('a', 'boom', true)];
    const before = JSON.stringify(events);
    const { groups } = traceGroups(events);
    expect(groups[1]?.[1]).toEqual({ role: 'tool', toolCallId: 'a', content: 'boom', isError: true });
    expect(JSON.stringify(events)).toBe(before);
  });
});
