import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '../../../../../engine/conversation/Message';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls, type OrderViolationCode } from '../../../../support/providerValidity';

const sys: Message = { id: 's', role: 'system', kind: 'canonical', content: 'sys' };
const summary: Message = { id: 'sum', role: 'system', kind: 'summary', content: 'earlier', sourceTurnIds: ['t0'] };
const memory: Message = { id: 'mem', role: 'user', kind: 'transient', source: 'memory', content: 'recalled' };
const u = (id: string): UserMessage => ({ id, role: 'user', content: id });
const a = (id: string, ...calls: string[]): AssistantMessage => ({ id, role: 'assistant', content: id, toolCalls: calls.map((c) => ({ id: c, name: 'f', arguments: '{}' })) });
const r = (callId: string, id = `r-${callId}`): ToolResultMessage => ({ id, role: 'tool', toolCallId: callId, content: 'out', isError: false });

const codes = (violations: { code: OrderViolationCode }[]) => violations.map((v) => v.code);

describe('provider order checks', () => {
  it('[provider-valid] a conversation with system, summary, transient, parallel calls and repeated roles passes both providers', () => {
    const messages = [sys, summary, u('u1'), u('u2'), a('a1', 'c1', 'c2', 'c3'), r('c2'), r('c1'), r('c3'), a('a2'), a('a3', 'c4'), r('c4'), u('u3'), memory];
    expect(checkOpenAIOrder(messages)).toEqual([]);
    expect(checkAnthropicOrder(messages)).toEqual([]);
  });

  // Each case: messages, then the codes OpenAI and Anthropic report ([] = accepted).
  const cases: [string, Message[], OrderViolationCode[], OrderViolationCode[]][] = [
    ['a system message after history', [sys, u('u1'), summary], ['system-after-history'], ['system-after-history']],
    ['a transient between a call and its result', [sys, u('u1'), a('a1', 'c1'), memory, r('c1')], ['call-without-result', 'result-without-call'], ['call-without-result', 'result-without-call']],
    ['history starting with an assistant message', [sys, a('a1'), u('u1')], [], ['history-not-user-first']],
    ['no history at all', [sys], [], ['no-history']],
    ['a tool result right after a user message', [sys, u('u1'), r('c1')], ['result-without-call'], ['result-without-call']],
    ['a tool result as the first history message', [sys, r('c1'), u('u1')], ['result-without-call'], ['history-not-user-first', 'result-without-call']],
    ['a user message between a call and its result', [sys, u('u1'), a('a1', 'c1'), u('u2'), r('c1')], ['call-without-result', 'result-without-call'], ['call-without-result', 'result-without-call']],
    ['a call never answered, at the end', [sys, u('u1'), a('a1', 'c1', 'c2'), r('c1')], ['call-without-result'], ['call-without-result']],
    ['a second result for one call', [sys, u('u1'), a('a1', 'c1'), r('c1'), r('c1', 'again')], ['duplicate-result'], ['duplicate-result']],
    ['a result answering an earlier assistant message', [sys, u('u1'), a('a1', 'c1'), r('c1'), a('a2', 'c2'), r('c2'), r('c1', 'late')], ['result-without-call'], ['result-without-call']],
    ['a result for a call of a different id', [sys, u('u1'), a('a1', 'c1'), r('zz')], ['result-without-call', 'call-without-result'], ['result-without-call', 'call-without-result']],
  ];
  it.each(cases)('[provider-valid] %s', (_, messages, openai, anthropic) => {
    expect(codes(checkOpenAIOrder(messages))).toEqual(openai);
    expect(codes(checkAnthropicOrder(messages))).toEqual(anthropic);
  });

  it('[provider-valid] a violation names its index and what to fix', () => {
    const [v] = checkAnthropicOrder([sys, a('a1'), u('u1')]);
    expect(v).toMatchObject({ code: 'history-not-user-first', index: 1 });
    expect(v?.detail).toContain('must start with a user message');
  });

  it('[no-orphans] orphanedResults lists results whose call is absent, unansweredCalls calls without any result', () => {
    const messages = [sys, u('u1'), a('a1', 'c1', 'c2'), r('c1'), r('gone')];
    expect(orphanedResults(messages).map((m) => m.id)).toEqual(['r-gone']);
    expect(unansweredCalls(messages).map((c) => c.id)).toEqual(['c2']);
    expect(orphanedResults([sys, u('u1'), a('a1', 'c1'), r('c1')])).toEqual([]);
    expect(unansweredCalls([sys, u('u1'), a('a1', 'c1'), r('c1')])).toEqual([]);
  });
});
