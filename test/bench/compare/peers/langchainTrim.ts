/**
 * LangChain.js: `trimMessages` from `@langchain/core/messages` (1.4.0) with `strategy: "last"`,
 * `includeSystem: true`, `maxTokens: budget` and a `tokenCounter` that counts with OUR tokenizer and
 * our per-message costing (`conversationTokens`), so its budget is ours; two peers differ only in
 * `startOn`, because that choice decides the outcome in an agent loop (DESIGN.md "Metrics"):
 *
 * - `langchainTrim`: `startOn: "human"`, the documented recipe. The trim_messages reference says
 *   "Most chat models expect that chat history starts with either (1) a HumanMessage or (2) a
 *   SystemMessage followed by a HumanMessage. To achieve this, set start_on='human'", with
 *   `strategy: "last"` and `includeSystem: true` for the other two properties it lists.
 * - `langchainTrimValidTail`: `startOn: ["human", "ai"]` (the option takes "a single type or an
 *   array of types"): the kept tail may start at an assistant message too, never at a tool message.
 *   A suffix that starts at a user or assistant message holds every result after it and the call of
 *   each, so the request is provider-valid (no provider requires a user message first:
 *   `requestValidity.ts`), and it is empty only when not even the newest assistant message with its
 *   results fits. `allowPartial` would cut a message's text (a tool result's, a call's) and `endOn`
 *   only drops trailing messages, so neither keeps a valid tail.
 *
 * What both do: keep the system message, then the longest run of the NEWEST whole messages that fits
 * the budget, then drop messages from the old end of that run until it starts with a `startOn` type.
 * With `startOn: "human"`, when the newest user message is further back than the budget reaches (a
 * long agent loop after one user prompt), that last walk passes the system message too and NOTHING is
 * kept, not even the system prompt: trimMessages 1.4.0 then returns `[undefined]` (its includeSystem
 * branch puts back a first element that is no longer there), which the adapter reads as an empty
 * request (invalid: `empty_request`). The same happens when the budget does not hold the system
 * message. In the benchmark the system prompt is the fixed prefix, sent outside every budget, so the
 * history handed in has no system message.
 */
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import type { Message, ToolCall } from '../../../../engine/conversation/Message';
import { messageTokens } from '../../../../engine/conversation/messageTokens';
import type { Tokenizer } from '../../../../engine/tokens/Tokenizer';
import { argumentsObject, argumentsText, assistantFrom, type Originals, originalOf, originalsOf, withContent } from './messageCodec';
import type { PeerAdapter } from './PeerAdapter';

const PEER = 'langchainTrim';

/** The `startOn` of each peer (see the module comment). */
export const START_ON_HUMAN = 'human';
export const START_ON_VALID_TAIL = ['human', 'ai'] as const;

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

/** What both peers do: trimMessages with `startOn` (see the module comment), read back into our messages. */
async function trim(conversation: readonly Message[], budget: number, tokenizer: Tokenizer, startOn: typeof START_ON_HUMAN | typeof START_ON_VALID_TAIL): Promise<Message[]> {
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
    startOn: typeof startOn === 'string' ? startOn : [...startOn],
    includeSystem: true,
    maxTokens: budget,
    tokenCounter,
  });
  // When nothing fits from the newest `startOn` message on, trimMessages 1.4.0 returns `[undefined]`
  // (see the module comment). That is no message at all, so it is left out: the peer sends nothing.
  return kept.filter((m): m is BaseMessage => m !== undefined).map((m) => fromLangChain(m, originals));
}

export const langchainTrim: PeerAdapter = {
  name: PEER,
  peer: '@langchain/core',
  promisesBudget: true,
  budgetBehaviour:
    'the documented recipe (startOn "human", strategy "last", includeSystem): keeps the system message and the newest whole messages that fit maxTokens (counted with our tokenizer), then drops from the old end until the history starts with a human message; when the newest user message is out of reach it sends nothing at all, not even the system prompt',
  toolPairs:
    'never orphans a result: the kept history is a suffix starting at a user message, so every kept result follows its call; it pays for that by dropping everything (system prompt included) when the newest user message does not fit',
  select: (conversation, budget, tokenizer) => trim(conversation, budget, tokenizer, START_ON_HUMAN),
};

export const langchainTrimValidTail: PeerAdapter = {
  name: 'langchainTrimValidTail',
  peer: '@langchain/core',
  promisesBudget: true,
  budgetBehaviour:
    'startOn ["human", "ai"] (strategy "last", includeSystem): keeps the system message and the newest whole messages that fit maxTokens (counted with our tokenizer), then drops from the old end until the history starts with a human or AI message, so the tail of an agent loop survives; empty only when not even the newest AI message with its results fits',
  toolPairs:
    'never orphans a result and never cuts a call from its results: the kept history is a suffix starting at a user or assistant message, never at a tool message',
  select: (conversation, budget, tokenizer) => trim(conversation, budget, tokenizer, START_ON_VALID_TAIL),
};
