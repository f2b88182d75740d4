/**
 * Mastra: the `TokenLimiter` memory processor of `@mastra/memory/processors` (0.15.x, the last line
 * that runs on Node 20; 1.x declares Node >= 22.13), called as a Mastra agent calls its memory
 * processors: `process(rememberedMessages, { systemMessage })`, where the remembered messages are
 * AI SDK 4 `CoreMessage`s (one `tool` message per run of results) and the system prompt is passed
 * separately (counted, never dropped). Here every history message is "remembered"; the agent would
 * pass the new user input as `newMessages`, which the limiter counts but never drops. The adapter
 * returns the system prompt followed by what the processor kept.
 *
 * Configuration, against Mastra's docs (mastra.ai/docs/reference/memory/memory-processors, 0.x):
 * the documented setup is one `new TokenLimiter(limit)` in the memory's `processors` ("to prevent
 * errors caused by exceeding the LLM's context window limit ... removes the oldest messages until
 * the total count is below the specified limit"), `ToolCallFilter` being an option for dropping tool
 * traffic, not part of it; so the adapter is that processor alone, with the budget as its limit. In
 * 0.x the processors see only what memory recalls, "not the new incoming user message" and not the
 * messages of a running tool loop, so the replay hands it the whole history at every step, as if
 * each step were a new turn recalling the thread. Mastra 1.x's `TokenLimiterProcessor` can also
 * prune at every step of a loop (`processInputStep`, per its reference), but 1.x needs Node 22.
 *
 * Tokenizer: the constructor takes only a limit and a js-tiktoken rank table (`encoding`), not a
 * counting function. `countTokens(message | text)` is a PUBLIC method of the class, and it is what
 * `process` counts with, so `mastraTokenLimiter` subclasses it and overrides `countTokens` to count
 * with OUR tokenizer and our per-message costing. The selection itself stays Mastra's, including its
 * fixed overheads: 24 tokens per conversation and 3.8 per system text. `mastraTokenLimiterOwnEncoder`
 * is the processor exactly as shipped (its own o200k_base encoder and its own costing: role name +
 * text + 3.8 per message, tool name + arguments for a call, the result text, no call ids); it
 * keeps within the limit as IT counts, which is not a promise about our count, and it throws on text
 * containing special-token markers such as `<|endoftext|>` (its encoder disallows them).
 *
 * What it does: walks from the newest message back, keeping each while the running total fits, and
 * stops at the first that does not; so it keeps a contiguous newest suffix (possibly empty). It
 * knows nothing of tool pairs: when the cut falls between an assistant message and its `tool`
 * message, the results are kept and their calls are not (orphans); the history may also start with
 * an assistant or tool message.
 */
import type { CoreMessage } from '@mastra/core/llm';
import { TokenLimiter } from '@mastra/memory/processors';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import type { Message, ToolCall, ToolResultMessage } from '../../../../engine/conversation/Message';
import type { Tokenizer } from '../../../../engine/tokens/Tokenizer';
import { argumentsText, argumentsValue, assistantFrom, type Originals, originalOf, originalsOf, segmentsOf, toolNameOf, withContent } from './messageCodec';
import { conversationTokens, type PeerAdapter } from './PeerAdapter';

const PEER = 'mastraTokenLimiter';

type CoreToolMessage = Extract<CoreMessage, { role: 'tool' }>;
type CoreAssistantMessage = Extract<CoreMessage, { role: 'assistant' }>;
type ToolResultPart = Extract<CoreToolMessage['content'][number], { type: 'tool-result' }>;
type AssistantPart = Exclude<CoreAssistantMessage['content'], string>[number];

const idOptions = (id: string) => ({ strata: { id } });
const idFrom = (options: unknown): string | undefined => {
  const strata = (options as { strata?: { id?: unknown } } | undefined)?.strata;
  return typeof strata?.id === 'string' ? strata.id : undefined;
};

function resultPart(r: ToolResultMessage, originals: Originals): ToolResultPart {
  return { type: 'tool-result', toolCallId: r.toolCallId, toolName: toolNameOf(originals, r.toolCallId), result: r.content, isError: r.isError, providerOptions: idOptions(r.id) };
}

/** Our history as AI SDK 4 `CoreMessage`s (Mastra 0.x's message type); our ids travel in `providerOptions`. */
export function toCoreMessages(history: readonly Message[], originals: Originals = originalsOf(history)): CoreMessage[] {
  return segmentsOf(history).map((s): CoreMessage => {
    if (s.kind === 'results') return { role: 'tool', content: s.results.map((r) => resultPart(r, originals)) };
    const m = s.message;
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content, providerOptions: idOptions(m.id) };
      case 'user':
        return { role: 'user', content: m.content, providerOptions: idOptions(m.id) };
      case 'assistant': {
        if (m.toolCalls.length === 0) return { role: 'assistant', content: m.content, providerOptions: idOptions(m.id) };
        const parts: AssistantPart[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
        for (const c of m.toolCalls) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, args: argumentsValue(c.arguments) });
        return { role: 'assistant', content: parts, providerOptions: idOptions(m.id) };
      }
    }
  });
}

/** `CoreMessage`s read back into ours; a `tool` message becomes one result per part. */
export function fromCoreMessages(messages: readonly CoreMessage[], originals: Originals): Message[] {
  return messages.flatMap((cm): Message[] => {
    if (cm.role === 'tool') {
      return cm.content.map((part): Message => {
        const original = originalOf(originals, idFrom(part.providerOptions) ?? originals.results.get(part.toolCallId)?.id, PEER);
        const content = typeof part.result === 'string' ? part.result : JSON.stringify(part.result);
        return { id: original.id, role: 'tool', toolCallId: part.toolCallId, content, isError: part.isError === true };
      });
    }
    const original = originalOf(originals, idFrom(cm.providerOptions), PEER);
    if (cm.role !== original.role) throw new Error(`${PEER} returned a ${cm.role} message for ${original.id}, which is a ${original.role} message`);
    if (cm.role === 'assistant') {
      if (typeof cm.content === 'string') return [assistantFrom(original, cm.content, [], PEER)];
      const text = cm.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const calls = cm.content.flatMap((p): ToolCall[] => (p.type === 'tool-call' ? [{ id: p.toolCallId, name: p.toolName, arguments: argumentsText(p.args, originals.calls.get(p.toolCallId)) }] : []));
      return [assistantFrom(original, text, calls, PEER)];
    }
    const text = typeof cm.content === 'string' ? cm.content : cm.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    return [withContent(original, text)];
  });
}

/** Counts with whatever the current call set: the tokenizer and the conversation being read back. */
interface Counting {
  tokenizer: Tokenizer;
  originals: Originals;
}

/**
 * An empty js-tiktoken rank table for the `encoding` option of the subclass below: its encoder is
 * never used (every count goes through the overridden `countTokens`), and building the default
 * o200k_base encoder would cost about a second and tens of MB per limiter.
 */
const UNUSED_ENCODING: TiktokenBPE = { pat_str: '.', special_tokens: {}, bpe_ranks: '' };

/** Mastra's TokenLimiter counting with our tokenizer, through its public `countTokens`. One per call. */
class OurTokenizerLimiter extends TokenLimiter {
  private readonly counting: Counting;

  constructor(limit: number, counting: Counting) {
    super({ limit, encoding: UNUSED_ENCODING });
    this.counting = counting;
  }

  override countTokens(message: string | CoreMessage): number {
    const { tokenizer, originals } = this.counting;
    return typeof message === 'string' ? tokenizer.count(message) : conversationTokens(fromCoreMessages([message], originals), tokenizer);
  }
}

// The shipped limiter builds its o200k_base encoder in the constructor (about a second, tens of MB),
// and its limit cannot be changed afterwards: the last few are kept, by budget.
const OWN_KEPT = 4;
const own = new Map<number, TokenLimiter>();
function ownLimiter(budget: number): TokenLimiter {
  let limiter = own.get(budget);
  if (limiter) own.delete(budget);
  else limiter = new TokenLimiter(budget);
  own.set(budget, limiter);
  for (const oldest of own.keys()) {
    if (own.size <= OWN_KEPT) break;
    own.delete(oldest);
  }
  return limiter;
}

/** System prompt (canonical and summary) first, history after: how the agent hands them to the processor. */
function split(conversation: readonly Message[]): { system: Message[]; history: Message[] } {
  const firstHistory = conversation.findIndex((m) => m.role !== 'system');
  const cut = firstHistory === -1 ? conversation.length : firstHistory;
  return { system: conversation.slice(0, cut), history: conversation.slice(cut) };
}

async function runLimiter(limiter: TokenLimiter, conversation: readonly Message[], originals: Originals): Promise<Message[]> {
  const { system, history } = split(conversation);
  const systemMessage = system.map((m) => m.content).join('\n') || undefined;
  const kept = await limiter.process(toCoreMessages(history, originals), { systemMessage });
  return [...system, ...fromCoreMessages(kept, originals)];
}

const TOOL_PAIRS =
  'ignores pairs: keeps the newest contiguous messages that fit, a run of results being one message; when the cut falls between an assistant message and its results, the results are sent without their calls';

export const mastraTokenLimiter: PeerAdapter = {
  name: PEER,
  peer: '@mastra/memory',
  promisesBudget: true,
  budgetBehaviour:
    'keeps the newest contiguous messages while 24 + (system tokens + 3.8) + their tokens fit the limit, counted with OUR tokenizer (public countTokens overridden); stops at the first that does not fit, so one huge newest message empties the history',
  toolPairs: TOOL_PAIRS,
  async select(conversation: readonly Message[], budget: number, tokenizer: Tokenizer): Promise<Message[]> {
    const originals = originalsOf(conversation);
    return runLimiter(new OurTokenizerLimiter(budget, { tokenizer, originals }), conversation, originals);
  },
};

export const mastraTokenLimiterOwnEncoder: PeerAdapter = {
  name: 'mastraTokenLimiterOwnEncoder',
  peer: '@mastra/memory',
  promisesBudget: false,
  budgetBehaviour:
    'as shipped: the same newest-suffix walk counted with its own o200k_base encoder and costing (role + text + 3.8 per message, no call ids), so it fits ITS count of the limit, not necessarily ours; throws on special-token markers in the text',
  toolPairs: TOOL_PAIRS,
  async select(conversation: readonly Message[], budget: number): Promise<Message[]> {
    return runLimiter(ownLimiter(budget), conversation, originalsOf(conversation));
  },
};
