/**
 * Whether a provider would accept a replayed request (`[replay-invalid]`): a request a real API
 * refuses is counted invalid and never priced as if it succeeded (DESIGN.md "Metrics"). Pure.
 *
 * The rules, each one both provider families enforce, with what they answer:
 * - `empty_request`: no message after the fixed prefix (the system prompt and tools alone).
 *   Anthropic refuses it (`messages: at least one message is required`; the system prompt travels
 *   in `system`, outside `messages`), and so does OpenAI's Responses API, which the recorded OpenAI
 *   agents (Codex) call, when there is no input (instructions alone are refused). Chat Completions
 *   would answer a list holding only the system message, but that is not the agent's request either.
 * - `orphaned_result`: a tool result that does not answer a call of the assistant message it
 *   follows (only results between them): its call is in no earlier assistant message of the request,
 *   or in one before another turn. Anthropic: "Each `tool_result` block must have a corresponding
 *   `tool_use` block in the previous message"; OpenAI Chat Completions: "messages with role 'tool'
 *   must be a response to a preceding message with 'tool_calls'"; Responses: "No tool call found for
 *   function call output with call_id". (`orphanedToolResults` counts the first kind only.)
 * - `unanswered_call`: an assistant tool call without its result before the next user or assistant
 *   message (or the end of the request). Anthropic, "Handle tool calls"
 *   (platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls): "Tool result blocks
 *   must immediately follow their corresponding tool use blocks in the message history. You cannot
 *   include any messages between the assistant's tool use message and the user's tool result
 *   message" (the error: "`tool_use` ids were found without `tool_result` blocks immediately
 *   after"); Chat Completions: "An assistant message with 'tool_calls' must be followed by tool
 *   messages responding to each 'tool_call_id'"; Responses: "No tool output found for function call".
 *   A result that arrives after another turn leaves its call unanswered where it had to be.
 * - `over_window`: the request (fixed prefix included, in the provider's tokens) is larger than the
 *   model's context window, when one is given (`prompt is too long` / `context_length_exceeded`).
 *
 * Not a rule: a history that starts with an assistant message. Anthropic's Messages reference said
 * "The first message must always use the `user` role" and no longer does (its `messages` parameter
 * now says only that consecutive same-role turns are combined; @anthropic-ai/sdk 1.14.0,
 * 2026-11-24, `MessageCreateParams.messages`), and OpenAI never asked for it; a tool result first
 * is an orphan anyway. System-role messages are the provider's system parameter: they are never
 * the request's messages and never open or close a turn here.
 */
import type { Message } from '../../conversation/Message';
import { INVALID_REASONS, type InvalidReason, type StepMetrics } from './ReplayTypes';

/** A replayed request as the provider would receive it. */
export interface ReplayedRequest {
  /** Its messages after the fixed prefix, in order (system-role ones are the provider's system parameter). */
  messages: readonly Message[];
  /** Tokens of the whole request, fixed prefix included, as priced (the provider's tokens). */
  tokens: number;
  /**
   * Tool results the request carries as text (an engine request renders each result inside its
   * context) whose call it does not render (`renderedResults`): orphans of what is rendered.
   */
  renderedOrphans?: number;
}

/** Whether some tool result does not answer a call of the assistant message it follows. */
function hasOrphanedResult(messages: readonly Message[]): boolean {
  let answerable = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      if (!answerable.has(m.toolCallId)) return true;
    } else if (m.role !== 'system') answerable = m.role === 'assistant' ? new Set(m.toolCalls.map((c) => c.id)) : new Set();
  }
  return false;
}

/** Whether some assistant call has no result before the next user or assistant message (or the end). */
function hasUnansweredCall(messages: readonly Message[]): boolean {
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') open.delete(m.toolCallId);
    else if (m.role !== 'system') {
      if (open.size > 0) return true;
      open = m.role === 'assistant' ? new Set(m.toolCalls.map((c) => c.id)) : new Set();
    }
  }
  return open.size > 0;
}

/**
 * Why a provider would refuse `request` (see the module comment), or undefined when it would
 * accept it; `window` is the model's context window in tokens (no window check without one).
 */
export function requestInvalidity(request: ReplayedRequest, window?: number): InvalidReason | undefined {
  if (!request.messages.some((m) => m.role !== 'system')) return 'empty_request';
  if ((request.renderedOrphans ?? 0) > 0 || hasOrphanedResult(request.messages)) return 'orphaned_result';
  if (hasUnansweredCall(request.messages)) return 'unanswered_call';
  if (window !== undefined && request.tokens > window) return 'over_window';
  return undefined;
}

/**
 * The usage of a refused request: nothing was accepted, so nothing is read from or written to a
 * cache, nothing is billed and nothing is generated. The cache model never sees it.
 */
export function refusedUsage(): { promptTokens: 0; input: 0; cacheRead: 0; cacheWrite: 0; cacheWriteByTtl: { '5m': 0; '1h': 0 }; output: 0 } {
  return { promptTokens: 0, input: 0, cacheRead: 0, cacheWrite: 0, cacheWriteByTtl: { '5m': 0, '1h': 0 }, output: 0 };
}

/** Counts of `reasons` by reason (every reason present, 0 when absent). */
export function invalidCounts(reasons: readonly (InvalidReason | undefined)[]): Record<InvalidReason, number> {
  const out = Object.fromEntries(INVALID_REASONS.map((r) => [r, 0])) as Record<InvalidReason, number>;
  for (const r of reasons) if (r !== undefined) out[r]++;
  return out;
}

/**
 * Step `m` as a refused request (`reason`): priced as nothing sent (with `refusedUsage`), so it
 * has no prompt tokens, no fixed prefix, no bytes and no reuse; what it rendered (tool results,
 * orphans) and the references it held stay as measured on the request it built.
 */
export function refusedStep(m: StepMetrics, reason: InvalidReason): StepMetrics {
  const out: StepMetrics = { ...m, promptTokens: 0, prefixTokens: 0, input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, promptBytes: 0, reusedBytes: 0, prefixReuse: 0, invalid: reason };
  delete out.reuseBreak;
  return out;
}
