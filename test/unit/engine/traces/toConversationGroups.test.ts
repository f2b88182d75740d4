import { describe, expect, it } from 'vitest';
import { ContextManager } from '../../../../engine/conversation/ContextManager';
import type { GroupInput } from '../../../../engine/conversation/readGroup';
import { manualClock } from '../../../../engine/ports/Clock';
import { sequentialIds } from '../../../../engine/ports/IdSource';
import type { TraceEvent } from '../../../../engine/traces/TraceEvent';
import { NO_RESULT_RECORDED, toConversationGroups, type ConversationRepairs } from '../../../../engine/traces/toConversationGroups';
import { expectValid, wordTokenizer } from '../conversation/core/conversationFixtures';

const source = { file: 'made-up.jsonl', line: 1 };
const userIn = (text: string): TraceEvent => ({ type: 'user_input', text, source });
const say = (text: string, step?: number, agentId?: string): TraceEvent => ({ type: 'assistant_text', text, ...(step === undefined ? {} : { step }), ...(agentId ? { agentId } : {}), source });
const call = (callId: string, step?: number): TraceEvent => ({ type: 'tool_call', callId, name: 'Read', arguments: `{"id":"${callId}"}`, ...(step === undefined ? {} : { step }), source });
const result = (callId: string, content = `out ${callId}`, isError = false): TraceEvent => ({ type: 'tool_result', callId, content, isError, source });

const NONE: ConversationRepairs = { synthesizedResults: 0, droppedOrphans: 0, droppedDuplicates: 0, droppedLeading: 0, subagentEvents: 0, droppedEmpty: 0, reorderedResults: 0 };

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

describe('toConversationGroups', () => {
  it('[group-atomic] one response split over records (same step, results in between) becomes one assistant message with all its calls and results', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), say('Reading.', 0), call('a', 0), result('a'), call('b', 0), result('b'), say('Both read.', 1)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:Reading.[a,b] -> a=out a b=out b', 'assistant:Both read.[] -> ']);
    expect(repairs).toEqual(NONE);
    replay(groups);
  });

  it('[group-atomic] without steps, text and calls merge until a result or a user message comes between them', () => {
    const { groups } = toConversationGroups([userIn('go'), say('one'), say('two'), call('a'), result('a'), say('three'), call('b'), result('b'), userIn('next'), say('four')]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:one\n\ntwo[a] -> a=out a', 'assistant:three[b] -> b=out b', 'user:next', 'assistant:four[] -> ']);
    replay(groups);
  });

  it('[group-atomic] consecutive records of different steps with nothing between them still merge, and later records of either step join them', () => {
    const { groups } = toConversationGroups([userIn('go'), say('thinking aloud', 0), call('a', 1), result('a'), call('b', 1), result('b'), call('c', 2), result('c')]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:thinking aloud[a,b] -> a=out a b=out b', 'assistant:[c] -> c=out c']);
    replay(groups);
  });

  it('[no-orphans] a call without a result gets a synthesized error result, counted (at a user message and at the end)', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), call('a', 0), call('b', 0), result('b'), userIn('stop'), call('c', 1)]);
    expect(summary(groups)).toEqual(['user:go', `assistant:[a,b] -> a=${NO_RESULT_RECORDED}! b=out b`, 'user:stop', `assistant:[c] -> c=${NO_RESULT_RECORDED}!`]);
    expect(repairs).toEqual({ ...NONE, synthesizedResults: 2 });
    replay(groups);
  });

  it('[no-orphans] a result whose call is not in the open assistant message is dropped and counted; a late one too', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), call('a', 0), result('a'), call('b', 1), result('zzz-never-called'), result('b'), userIn('next'), call('c', 2), result('b-late-for-c')]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:[a] -> a=out a', 'assistant:[b] -> b=out b', 'user:next', `assistant:[c] -> c=${NO_RESULT_RECORDED}!`]);
    expect(repairs).toEqual({ ...NONE, droppedOrphans: 2, synthesizedResults: 1 });
    replay(groups);
  });

  it('[no-orphans] a result for an earlier message whose call got a synthesized result is an orphan', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), call('a', 0), userIn('interrupt'), result('a')]);
    expect(summary(groups)).toEqual(['user:go', `assistant:[a] -> a=${NO_RESULT_RECORDED}!`, 'user:interrupt']);
    expect(repairs).toEqual({ ...NONE, synthesizedResults: 1, droppedOrphans: 1 });
  });

  it('[group-atomic] a second result for a call, before or after its message closed, and a reused call id are dropped as duplicates', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), call('a', 0), result('a', 'first'), result('a', 'again'), call('b', 1), result('b'), result('a', 'third'), call('a', 2), say('done', 3)]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:[a] -> a=first', 'assistant:[b] -> b=out b', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, droppedDuplicates: 3 });
    replay(groups);
  });

  it('[group-atomic] a result recorded before its call waits for the call and is attached (counted); one whose call never comes is an orphan', () => {
    const { groups, repairs } = toConversationGroups([userIn('go'), result('a', 'early'), say('Now calling.', 0), call('a', 0), result('never')]);
    expect(summary(groups)).toEqual(['user:go', 'assistant:Now calling.[a] -> a=early']);
    expect(repairs).toEqual({ ...NONE, reorderedResults: 1, droppedOrphans: 1 });
  });

  it('[provider-valid] assistant groups before the first user message are dropped, counted, never invented around', () => {
    const { groups, repairs } = toConversationGroups([say('hello?', 0), call('a', 0), result('a'), say('still nobody', 1), userIn('hi'), say('hi!', 2)]);
    expect(summary(groups)).toEqual(['user:hi', 'assistant:hi![] -> ']);
    expect(repairs).toEqual({ ...NONE, droppedLeading: 2 });
    replay(groups);
  });

  it('empty user text and assistant messages with neither text nor calls are dropped and counted', () => {
    const { groups, repairs } = toConversationGroups([userIn('  \n'), userIn('go'), say('  ', 0), userIn('again'), say('ok', 1)]);
    expect(summary(groups)).toEqual(['user:go', 'user:again', 'assistant:ok[] -> ']);
    expect(repairs).toEqual({ ...NONE, droppedEmpty: 2 });
    replay(groups);
  });

  it('subagent events stay out of the main thread and are counted; instructions, usage and compaction are not history', () => {
    const events: TraceEvent[] = [
      { type: 'instructions', role: 'system', text: 'sys', source },
      userIn('explore'),
      call('spawn', 0),
      { type: 'subagent_spawn', agentId: 'ag', source },
      { type: 'user_input', text: 'look', agentId: 'ag', source },
      say('found', 1, 'ag'),
      { type: 'usage', input: 1, cacheRead: 0, cacheWrite: 0, output: 1, step: 1, agentId: 'ag', source },
      { type: 'subagent_return', agentId: 'ag', source },
      { type: 'usage', input: 1, cacheRead: 0, cacheWrite: 0, output: 1, step: 0, source },
      result('spawn', 'found'),
      { type: 'compaction', summary: 'earlier work', source },
      say('done', 2),
    ];
    const { groups, repairs } = toConversationGroups(events);
    expect(summary(groups)).toEqual(['user:explore', 'assistant:[spawn] -> spawn=found', 'assistant:done[] -> ']);
    expect(repairs).toEqual({ ...NONE, subagentEvents: 5 });
    replay(groups);
  });

  it('keeps error flags and leaves the input events untouched', () => {
    const events = [userIn('go'), call('a', 0), result('a', 'boom', true)];
    const before = JSON.stringify(events);
    const { groups } = toConversationGroups(events);
    expect(groups[1]?.[1]).toEqual({ role: 'tool', toolCallId: 'a', content: 'boom', isError: true });
    expect(JSON.stringify(events)).toBe(before);
  });
});
