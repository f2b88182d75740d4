import type { Message, ToolCall, ToolResultMessage } from '../../engine/conversation/Message';

/**
 * The tests' oracle of the message-order rules of the two provider families, checked on our
 * provider-neutral messages exactly as the provider would see them after mapping. Production code
 * never needs it (it builds valid lists); tests judge every list the engine sends with it. Pure.
 */

/** Why a message list would be refused by a provider. */
export type OrderViolationCode =
  /** A system-role message (canonical, summary, transient) after a history message. */
  | 'system-after-history'
  /** Anthropic: the first history message is not a user message. */
  | 'history-not-user-first'
  /** Anthropic: no history message at all (a request needs at least one). */
  | 'no-history'
  /** A tool result whose call is not in the assistant message it must follow. */
  | 'result-without-call'
  /** A second result for a call that already has one. */
  | 'duplicate-result'
  /** A tool call with no result before the next non-tool message (or the end). */
  | 'call-without-result';

/** One broken rule: `index` is the position in the checked list, `detail` says what to fix. */
export interface OrderViolation {
  code: OrderViolationCode;
  index: number;
  detail: string;
}

/** Walks the history after the system block: the checks both providers share. */
function checkPairs(messages: readonly Message[], where: string, out: OrderViolation[]): void {
  let open = new Map<string, boolean>();
  let inResults = false;
  const closeOpen = (index: number) => {
    for (const [id, answered] of open) {
      if (!answered) out.push({ code: 'call-without-result', index, detail: `tool call ${id} has no result ${where}` });
    }
    open = new Map();
  };
  messages.forEach((m, index) => {
    if (m.role === 'tool') {
      const answered = open.get(m.toolCallId);
      if (!inResults || answered === undefined) {
        out.push({ code: 'result-without-call', index, detail: `tool result ${m.id} answers ${m.toolCallId}, which the preceding assistant message did not call` });
      } else if (answered) {
        out.push({ code: 'duplicate-result', index, detail: `tool call ${m.toolCallId} already has a result; ${m.id} is a second one` });
      } else {
        open.set(m.toolCallId, true);
      }
      return;
    }
    if (m.role === 'system') return;
    closeOpen(index);
    inResults = m.role === 'assistant';
    if (m.role === 'assistant') open = new Map(m.toolCalls.map((c) => [c.id, false]));
  });
  closeOpen(messages.length);
}

/** Every system-role message after the first history message. */
function checkSystemFirst(messages: readonly Message[], out: OrderViolation[]): void {
  let history = false;
  messages.forEach((m, index) => {
    if (m.role !== 'system') history = true;
    else if (history) out.push({ code: 'system-after-history', index, detail: `${m.kind} message ${m.id} comes after history; system content must all come first` });
  });
}

/**
 * OpenAI chat rules: system (developer) messages only at the start; every tool message follows an
 * assistant message (directly or after sibling results) whose `tool_calls` contain its id; every
 * call of an assistant message is answered before the next non-tool message; one result per call.
 * Empty when valid.
 */
export function checkOpenAIOrder(messages: readonly Message[]): OrderViolation[] {
  const out: OrderViolation[] = [];
  checkSystemFirst(messages, out);
  checkPairs(messages, 'before the next non-tool message', out);
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Anthropic Messages rules: every system-role message becomes part of the separate `system`
 * parameter, so all must precede history; history starts with a user message and is not empty;
 * tool results travel first in the user turn right after the assistant turn that made the calls,
 * so every `tool_use` is answered by the immediately following results and no `tool_result`
 * lacks its `tool_use` in the immediately preceding assistant turn. Consecutive same-role turns
 * are merged by the API and are therefore allowed. Empty when valid.
 */
export function checkAnthropicOrder(messages: readonly Message[]): OrderViolation[] {
  const out: OrderViolation[] = [];
  checkSystemFirst(messages, out);
  const first = messages.findIndex((m) => m.role !== 'system');
  const head = messages[first];
  if (head === undefined) out.push({ code: 'no-history', index: messages.length, detail: 'a request needs at least one user message after the system content' });
  else if (head.role !== 'user') out.push({ code: 'history-not-user-first', index: first, detail: `history starts with a ${head.role} message (${head.id}); it must start with a user message` });
  checkPairs(messages, 'in the user turn right after the call', out);
  return out.sort((a, b) => a.index - b.index);
}

/** Tool results whose call appears in no assistant message of `messages`. */
export function orphanedResults(messages: readonly Message[]): ToolResultMessage[] {
  const calls = new Set<string>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls) calls.add(c.id);
  return messages.filter((m): m is ToolResultMessage => m.role === 'tool' && !calls.has(m.toolCallId));
}

/** Tool calls that no tool result of `messages` answers. */
export function unansweredCalls(messages: readonly Message[]): ToolCall[] {
  const answered = new Set<string>();
  for (const m of messages) if (m.role === 'tool') answered.add(m.toolCallId);
  return messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.filter((c) => !answered.has(c.id)) : []));
}
