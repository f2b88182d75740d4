import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../../engine/conversation/Message';
import type { InvalidReason } from '../../../../../engine/traces/replay/ReplayTypes';
import { invalidCounts, refusedStep, requestInvalidity } from '../../../../../engine/traces/replay/requestValidity';
import type { StepMetrics } from '../../../../../engine/traces/replay/ReplayTypes';

const system: Message = { id: 's', role: 'system', kind: 'canonical', content: 'You are a coding agent.' };
const summary: Message = { id: 'sum', role: 'system', kind: 'summary', content: 'Earlier: read a.ts.', sourceTurnIds: ['t0'] };
const user = (id: string): Message => ({ id, role: 'user', content: `question ${id}` });
const said = (id: string): Message => ({ id, role: 'assistant', content: `answer ${id}`, toolCalls: [] });
const calls = (id: string, ...callIds: string[]): Message => ({ id, role: 'assistant', content: '', toolCalls: callIds.map((c) => ({ id: c, name: 'Read', arguments: `{"path":"${c}.ts"}` })) });
const result = (id: string, callId: string): Message => ({ id, role: 'tool', toolCallId: callId, content: `contents of ${callId}`, isError: false });

const valid: [string, Message[]][] = [
  ['one user message', [user('u1')]],
  ['the system prompt, then a user message', [system, user('u1')]],
  ['a call answered by the next message', [user('u1'), calls('a1', 'c1'), result('t1', 'c1')]],
  ['parallel calls answered in any order, then more turns', [user('u1'), calls('a1', 'c1', 'c2'), result('t2', 'c2'), result('t1', 'c1'), said('a2'), user('u2')]],
  ['a history that starts with an assistant message (no provider requires a user first)', [said('a0'), user('u1')]],
  ['a tail that starts at an assistant message with its results', [calls('a3', 'c3'), result('t3', 'c3'), calls('a4', 'c4'), result('t4', 'c4')]],
  ['a summary system message between turns is the system parameter, not a turn', [user('u1'), calls('a1', 'c1'), summary, result('t1', 'c1')]],
  ['consecutive user messages (the APIs merge them)', [user('u1'), user('u2')]],
];

const invalid: [string, Message[], InvalidReason][] = [
  ['nothing at all', [], 'empty_request'],
  ['the system prompt alone', [system], 'empty_request'],
  ['system messages only', [system, summary], 'empty_request'],
  ['a result whose call is in no message of the request', [user('u1'), result('t1', 'c1')], 'orphaned_result'],
  ['a result first (its call was cut)', [result('t1', 'c1'), said('a2')], 'orphaned_result'],
  ['a result after another turn, its call further back', [user('u1'), calls('a1', 'c1'), result('t1', 'c1'), said('a2'), result('t1b', 'c1')], 'orphaned_result'],
  ['a call the request never answers', [user('u1'), calls('a1', 'c1')], 'unanswered_call'],
  ['one of two parallel calls unanswered', [user('u1'), calls('a1', 'c1', 'c2'), result('t1', 'c1'), said('a2')], 'unanswered_call'],
  ['a user message between a call and its result', [user('u1'), calls('a1', 'c1'), user('u2'), result('t1', 'c1')], 'orphaned_result'],
  ['a call whose result comes only after the next assistant turn', [user('u1'), calls('a1', 'c1'), said('a2')], 'unanswered_call'],
];

describe('requestInvalidity: what a provider refuses', () => {
  it.each(valid)('[replay-invalid] accepts %s', (_, messages) => {
    expect(requestInvalidity({ messages, tokens: 100 })).toBeUndefined();
    expect(requestInvalidity({ messages, tokens: 100 }, 100)).toBeUndefined();
  });

  it.each(invalid)('[replay-invalid] refuses %s', (_, messages, reason) => {
    expect(requestInvalidity({ messages, tokens: 100 })).toBe(reason);
  });

  it('[replay-invalid] refuses a request over the window only when a window is given, counting the whole request', () => {
    const messages = [user('u1')];
    expect(requestInvalidity({ messages, tokens: 1001 }, 1000)).toBe('over_window');
    expect(requestInvalidity({ messages, tokens: 1000 }, 1000)).toBeUndefined();
    expect(requestInvalidity({ messages, tokens: 1_000_000 })).toBeUndefined();
  });

  it('[replay-invalid] counts orphans of what is rendered as text (an engine request) as orphaned results', () => {
    expect(requestInvalidity({ messages: [user('tail')], tokens: 10, renderedOrphans: 1 })).toBe('orphaned_result');
    expect(requestInvalidity({ messages: [user('tail')], tokens: 10, renderedOrphans: 0 })).toBeUndefined();
  });

  it('[replay-invalid] reports the first reason that applies: empty, orphaned, unanswered, over the window', () => {
    expect(requestInvalidity({ messages: [], tokens: 5000 }, 10)).toBe('empty_request');
    expect(requestInvalidity({ messages: [result('t1', 'c1'), calls('a2', 'c2')], tokens: 5000 }, 10)).toBe('orphaned_result');
    expect(requestInvalidity({ messages: [user('u1'), calls('a2', 'c2')], tokens: 5000 }, 10)).toBe('unanswered_call');
  });

  it('[replay-invalid] counts reasons, every reason present', () => {
    expect(invalidCounts([undefined, 'empty_request', 'empty_request', 'over_window'])).toEqual({ empty_request: 2, orphaned_result: 0, unanswered_call: 0, over_window: 1 });
    expect(invalidCounts([])).toEqual({ empty_request: 0, orphaned_result: 0, unanswered_call: 0, over_window: 0 });
  });

  it('[replay-invalid] a refused step has nothing sent: no tokens, no prefix, no bytes, no reuse; what it rendered stays', () => {
    const step: StepMetrics = {
      index: 3, step: 3, at: 0, promptTokens: 900, prefixTokens: 200, promptBytes: 3600, reusedBytes: 3000, prefixReuse: 3000 / 3600, reuseBreak: 'append',
      input: 100, cacheRead: 700, cacheWrite: 100, cacheWrite1h: 0, output: 40, references: 2, referencesHeld: 1, neededReferenceRecall: 0.5, rereadsForced: 0,
      toolResults: 3, orphanedToolResults: 1, generation: 1, refreshes: 0, limitRefreshes: 0, overBudget: false, recordedOverWindow: false, overheadMs: 0, tokenizeMs: 0,
    };
    const refused = refusedStep(step, 'orphaned_result');
    expect(refused).toEqual({ ...step, promptTokens: 0, prefixTokens: 0, input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, promptBytes: 0, reusedBytes: 0, prefixReuse: 0, reuseBreak: undefined, invalid: 'orphaned_result' });
    expect('reuseBreak' in refused).toBe(false);
    expect(step.promptTokens).toBe(900);
  });
});
