/**
 * Vercel AI SDK (`ai` 6.x): `pruneMessages` with the loop-control recipe (`vercelPruneMessages`), and
 * the loop-control recipe alone (`vercelPrepareStep`), the one the SDK's agent docs give for long
 * agent loops; they differ in what reaches the window, which decides the tool pairs, so both run.
 *
 * `pruneMessages` takes NO token budget. It removes reasoning parts and tool-call/tool-result parts
 * by POSITION (everything before the last N messages), then drops messages left empty. The SDK's
 * docs give two recipes and no budgeted one, so this adapter applies both, verbatim, and the budget
 * argument is IGNORED:
 *  1. the `pruneMessages` reference example (node_modules/ai/docs/07-reference/02-ai-sdk-ui/32-prune-messages.mdx):
 *     `reasoning: 'before-last-message'`, `toolCalls: 'before-last-2-messages'`, `emptyMessages: 'remove'`;
 *  2. the "Context Management" recipe of `prepareStep` (node_modules/ai/docs/03-agents/04-loop-control.mdx): when
 *     there are more than 20 messages, send `messages[0]` (the system instructions) and the last 10.
 * The agent docs (03-agents) show only the second, for a `ToolLoopAgent`; `pruneMessages` appears in
 * the UI reference only, pruning a chat route's messages. `vercelPruneMessages` applies both, in that
 * order; `vercelPrepareStep` applies the recipe alone. `prepareStep`'s messages apply to that step
 * only, and the next step gets the whole history again, as every step of the replay does. In the
 * benchmark the system prompt is the fixed prefix, outside the history, so `messages[0]` is the
 * agent's first user message.
 *
 * What it does with pairs: step 1 removes a call and its result together, except calls whose ids
 * appear in the last 2 messages, which it keeps (with their results) wherever they are; step 2 cuts
 * by message count. On well-formed input the kept exchange sits at the very end, inside the last 10,
 * so no result is orphaned; but the cut can leave the history starting with an assistant or tool
 * message, and any result of an input whose call is already missing stays orphaned (it is never
 * repaired). Tool calls stripped from an assistant message come back as that message (same id) with
 * fewer `toolCalls`; messages left empty (a call-only assistant message, a tool message) are dropped.
 * The recipe alone keeps every call and result of the last 10 messages, so a window that starts at a
 * `tool` message sends those results without their call (orphans, never repaired).
 */
import { type ModelMessage, pruneMessages, type TextPart, type ToolCallPart, type ToolResultPart } from 'ai';
import type { Message, ToolCall, ToolResultMessage } from '../../../../engine/conversation/Message';
import { argumentsText, argumentsValue, assistantFrom, type Originals, originalOf, originalsOf, segmentsOf, toolNameOf, withContent } from './messageCodec';
import type { PeerAdapter } from './PeerAdapter';

const PEER = 'vercelPruneMessages';

/** The options of the `pruneMessages` reference example. */
export const PRUNE_OPTIONS = { reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' } as const;
/** The `prepareStep` context-management recipe: above this many messages, keep the first and the last `WINDOW_KEEP_LAST`. */
const WINDOW_ABOVE = 20;
export const WINDOW_KEEP_LAST = 10;

/** Our id, carried in the provider options every AI SDK message and part may hold. */
const idOptions = (id: string) => ({ strata: { id } });
const idFrom = (options: unknown): string | undefined => {
  const strata = (options as { strata?: { id?: unknown } } | undefined)?.strata;
  return typeof strata?.id === 'string' ? strata.id : undefined;
};

function resultPart(r: ToolResultMessage, originals: Originals): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: r.toolCallId,
    toolName: toolNameOf(originals, r.toolCallId),
    output: r.isError ? { type: 'error-text', value: r.content } : { type: 'text', value: r.content },
    providerOptions: idOptions(r.id),
  };
}

/**
 * Our conversation as AI SDK `ModelMessage`s: system/user text messages, an assistant message with
 * a text part and one `tool-call` part per call (arguments parsed from JSON), and each run of
 * results as ONE `tool` message with a `tool-result` part per result, which is how the SDK itself
 * records a step's results.
 */
export function toModelMessages(conversation: readonly Message[], originals: Originals = originalsOf(conversation)): ModelMessage[] {
  return segmentsOf(conversation).map((s): ModelMessage => {
    if (s.kind === 'results') return { role: 'tool', content: s.results.map((r) => resultPart(r, originals)) };
    const m = s.message;
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content, providerOptions: idOptions(m.id) };
      case 'user':
        return { role: 'user', content: m.content, providerOptions: idOptions(m.id) };
      case 'assistant': {
        if (m.toolCalls.length === 0) return { role: 'assistant', content: m.content, providerOptions: idOptions(m.id) };
        const text: TextPart[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
        const calls: ToolCallPart[] = m.toolCalls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: argumentsValue(c.arguments) }));
        return { role: 'assistant', content: [...text, ...calls], providerOptions: idOptions(m.id) };
      }
    }
  });
}

/** AI SDK messages read back into ours; a `tool` message becomes one result per part. */
export function fromModelMessages(messages: readonly ModelMessage[], originals: Originals): Message[] {
  return messages.flatMap((mm): Message[] => {
    if (mm.role === 'tool') {
      return mm.content.flatMap((part): Message[] => {
        if (part.type !== 'tool-result') return [];
        const id = idFrom(part.providerOptions) ?? originals.results.get(part.toolCallId)?.id;
        const original = originalOf(originals, id, PEER);
        const output = part.output;
        const content = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify(output);
        return [{ id: original.id, role: 'tool', toolCallId: part.toolCallId, content, isError: output.type === 'error-text' || output.type === 'error-json' }];
      });
    }
    const original = originalOf(originals, idFrom(mm.providerOptions), PEER);
    if (mm.role !== original.role) throw new Error(`${PEER} returned a ${mm.role} message for ${original.id}, which is a ${original.role} message`);
    if (mm.role === 'assistant') {
      if (typeof mm.content === 'string') return [assistantFrom(original, mm.content, [], PEER)];
      const text = mm.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const calls = mm.content.flatMap((p): ToolCall[] => (p.type === 'tool-call' ? [{ id: p.toolCallId, name: p.toolName, arguments: argumentsText(p.input, originals.calls.get(p.toolCallId)) }] : []));
      return [assistantFrom(original, text, calls, PEER)];
    }
    const text = typeof mm.content === 'string' ? mm.content : mm.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    return [withContent(original, text)];
  });
}

/** The `prepareStep` recipe: above `WINDOW_ABOVE` messages, the first and the last `WINDOW_KEEP_LAST`. */
function prepareStepWindow(messages: readonly ModelMessage[]): ModelMessage[] {
  const first = messages[0];
  return messages.length > WINDOW_ABOVE && first !== undefined ? [first, ...messages.slice(-WINDOW_KEEP_LAST)] : [...messages];
}

export const vercelPruneMessages: PeerAdapter = {
  name: PEER,
  peer: 'ai',
  promisesBudget: false,
  budgetBehaviour: `ignores the budget (pruneMessages has none): strips tool calls/results before the last 2 messages, then keeps messages[0] and the last ${WINDOW_KEEP_LAST} when there are more than ${WINDOW_ABOVE} (the SDK docs' prepareStep recipe)`,
  toolPairs:
    'strips every call with its result except the calls named in the last 2 messages, so on well-formed input nothing is orphaned; the last-10 window cuts by count and may start the history on an assistant message',
  async select(conversation: readonly Message[]): Promise<Message[]> {
    const originals = originalsOf(conversation);
    const pruned = pruneMessages({ messages: toModelMessages(conversation, originals), ...PRUNE_OPTIONS });
    return fromModelMessages(prepareStepWindow(pruned), originals);
  },
};

export const vercelPrepareStep: PeerAdapter = {
  name: 'vercelPrepareStep',
  peer: 'ai',
  promisesBudget: false,
  budgetBehaviour: `ignores the budget: the SDK agent docs' prepareStep recipe alone (above ${WINDOW_ABOVE} messages, messages[0] and the last ${WINDOW_KEEP_LAST}, a run of results being one message)`,
  toolPairs: 'cuts by message count and keeps every call and result in the window: when the window starts at a tool message, those results are sent without their call',
  async select(conversation: readonly Message[]): Promise<Message[]> {
    const originals = originalsOf(conversation);
    return fromModelMessages(prepareStepWindow(toModelMessages(conversation, originals)), originals);
  },
};
