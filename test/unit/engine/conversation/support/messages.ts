import type { AssistantMessage, HistoryMessage, ToolResultMessage, UserMessage } from '../../../../../engine/conversation/Message';

/** Small builders for history messages in the support tests. */
export const user = (id: string, content = `user ${id}`): UserMessage => ({ id, role: 'user', content });

export const assistant = (id: string, calls: readonly (string | [id: string, name: string])[] = [], content = `assistant ${id}`): AssistantMessage => ({
  id,
  role: 'assistant',
  content,
  toolCalls: calls.map((c) => (typeof c === 'string' ? { id: c, name: `tool_${c}`, arguments: '{}' } : { id: c[0], name: c[1], arguments: '{}' })),
});

export const result = (id: string, toolCallId: string, content = `output of ${toolCallId}`, isError = false): ToolResultMessage => ({ id, role: 'tool', toolCallId, content, isError });

/** `n` alternating user/assistant messages without tool calls, ids m0..m(n-1). */
export const plain = (n: number): HistoryMessage[] => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? user(`m${i}`) : assistant(`m${i}`)));

/** Every (call index, result index) pair of a list: each result with the assistant message that issued its call. */
export function callResultPairs(messages: readonly HistoryMessage[]): [number, number][] {
  const pairs: [number, number][] = [];
  messages.forEach((m, r) => {
    if (m.role !== 'tool') return;
    messages.forEach((a, i) => {
      if (a.role === 'assistant' && a.toolCalls.some((c) => c.id === m.toolCallId)) pairs.push([i, r]);
    });
  });
  return pairs;
}
