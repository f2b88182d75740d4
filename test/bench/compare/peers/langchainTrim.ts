/**
 * LangChain.js: `trimMessages` from `@langchain/core/messages` with `strategy: "last"`,
 * `startOn: "human"`, `includeSystem: true`, `maxTokens: budget` and a `tokenCounter` that counts
 * with OUR tokenizer and our per-message costing (`conversationTokens`), so its budget is ours.
 *
 * What it does: keeps the system message, then the longest run of the NEWEST messages that fits the
 * budget, and finally drops messages from the old end of that run until it starts with a human
 * message. It never splits a message (`allowPartial` stays false). The kept history is therefore
 * always a suffix that starts at a user message, so tool results are never orphaned. But when the
 * newest user message is further back than the budget reaches (a long agent loop after one user
 * prompt), the startOn step walks back past the system message too and NOTHING is kept, not even the
 * system prompt: trimMessages 1.4.0 then returns `[undefined]` (its includeSystem branch puts back a
 * first element that is no longer there), which the adapter reads as an empty request. The same
 * happens when the budget does not hold the system message.
 */
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import type { Message, ToolCall } from '../../../../engine/conversation/Message';
import { messageTokens } from '../../../../engine/conversation/messageTokens';
import type { Tokenizer } from '../../../../engine/tokens/Tokenizer';
import { argumentsObject, argumentsText, assistantFrom, type Originals, originalOf, originalsOf, withContent } from './messageCodec';
import type { PeerAdapter } from './PeerAdapter';

const PEER = 'langchainTrim';

/** One of our messages as the LangChain message a LangChain agent would hold; our id travels in `id`. */
export function toLangChain(m: Message): BaseMessage {
  switch (m.role) {
    case 'system':
      return new SystemMessage({ content: m.content, id: m.id });
    case 'user':
      return new HumanMessage({ content: m.content, id: m.id });
    case 'assistant':
      return new AIMessage({
        content: m.content,
        id: m.id,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, args: argumentsObject(c.arguments), type: 'tool_call' as const })),
      });
    case 'tool':
      return new ToolMessage({ content: m.content, id: m.id, tool_call_id: m.toolCallId, status: m.isError ? 'error' : 'success' });
  }
}

/** Text of a LangChain message's content (a string, or the text blocks of a block list). */
function textOf(m: BaseMessage): string {
  const c: unknown = m.content;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((block: unknown) => {
      if (typeof block === 'string') return block;
      if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text') return String((block as { text?: unknown }).text ?? '');
      return '';
    })
    .join('');
}

/** A LangChain message read back into ours, against the conversation it came from. */
export function fromLangChain(m: BaseMessage, originals: Originals): Message {
  const original = originalOf(originals, m.id, PEER);
  const type = m.getType();
  const content = textOf(m);
  const expected = { system: 'system', user: 'human', assistant: 'ai', tool: 'tool' }[original.role];
  if (type !== expected) throw new Error(`${PEER} returned a ${type} message for ${original.id}, which is a ${original.role} message`);
  if (AIMessage.isInstance(m)) {
    const calls: ToolCall[] = (m.tool_calls ?? []).map((c) => {
      const id = c.id ?? '';
      return { id, name: c.name, arguments: argumentsText(c.args, originals.calls.get(id)) };
    });
    return assistantFrom(original, content, calls, PEER);
  }
  if (ToolMessage.isInstance(m)) return { id: original.id, role: 'tool', toolCallId: m.tool_call_id, content, isError: m.status === 'error' };
  return withContent(original, content);
}

export const langchainTrim: PeerAdapter = {
  name: PEER,
  peer: '@langchain/core',
  promisesBudget: true,
  budgetBehaviour:
    'keeps the system message and the newest whole messages that fit maxTokens (counted with our tokenizer), then drops from the old end until the history starts with a human message; when the newest user message is out of reach it sends nothing at all, not even the system prompt',
  toolPairs:
    'never orphans a result: the kept history is a suffix starting at a user message, so every kept result follows its call; it pays for that by dropping everything (system prompt included) when the newest user message does not fit',
  async select(conversation: readonly Message[], budget: number, tokenizer: Tokenizer): Promise<Message[]> {
    const originals = originalsOf(conversation);
    // trimMessages calls the counter on ever shorter lists of the same message objects: cost each object once.
    const cost = new WeakMap<BaseMessage, number>();
    const tokenCounter = (messages: BaseMessage[]): number => {
      let total = 0;
      for (const m of messages) {
        let n = cost.get(m);
        if (n === undefined) {
          n = messageTokens(fromLangChain(m, originals), tokenizer);
          cost.set(m, n);
        }
        total += n;
      }
      return total;
    };
    const kept = await trimMessages(conversation.map(toLangChain), {
      strategy: 'last',
      startOn: 'human',
      includeSystem: true,
      maxTokens: budget,
      tokenCounter,
    });
    // When nothing fits from the newest user message on, trimMessages 1.4.0 returns `[undefined]`
    // (see the module comment). That is no message at all, so it is left out: the peer sends nothing.
    return kept.filter((m): m is BaseMessage => m !== undefined).map((m) => fromLangChain(m, originals));
  },
};
