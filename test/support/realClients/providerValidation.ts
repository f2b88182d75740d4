import type { WireApi } from './replyScript';

/**
 * The scripted server's validating mode (SPEC `[real-client-validating]`): the checks the real
 * providers make before they bill a request, with their status codes and error bodies, so a
 * gateway that rewrites requests is refused here exactly where a provider would refuse it.
 *
 * Anthropic Messages (400 `invalid_request_error`), first that applies:
 * - no messages: `messages: at least one message is required`;
 * - a `tool_result` whose id is not a `tool_use` of the previous assistant turn:
 *   `messages.N.content.K: unexpected \`tool_use_id\` found in \`tool_result\` blocks: <id>. …`;
 * - a `tool_use` without its `tool_result` in the next user turn (when one follows):
 *   `messages.N: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: <ids>. …`;
 * - more than four `cache_control` blocks: `A maximum of 4 blocks with cache_control may be provided. Found N.`;
 * - a prompt over the window: `prompt is too long: N tokens > M maximum`.
 * A turn is a run of consecutive messages of one role (the API merges them); mid-conversation
 * `system` messages belong to no turn.
 *
 * OpenAI Responses (400, `{ error: { message, type: 'invalid_request_error', param, code } }`):
 * - an empty input (`code: 'empty_array'`);
 * - an output whose `call_id` no earlier call has: `No tool call found for function call output with call_id <id>.`;
 * - a call with no output after it: `No tool output found for function call <id>.`;
 * - a prompt over the window (`code: 'context_length_exceeded'`).
 *
 * Pure: the caller counts the prompt's tokens and passes them in.
 */

export interface ValidationOptions {
  /** The model's context window in the server's prompt tokens; no length check when undefined. */
  anthropicWindow?: number;
  responsesWindow?: number;
}

/** A refusal as the provider sends it. */
export interface Refusal {
  status: number;
  /** The provider's error type (`invalid_request_error`). */
  type: string;
  message: string;
  /** The whole error body, in the provider's shape. */
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const blocksOf = (content: unknown): Json[] => (Array.isArray(content) ? (content as unknown[]).filter(isRecord) : []);

const anthropicRefusal = (message: string): Refusal => ({
  status: 400,
  type: 'invalid_request_error',
  message,
  body: { type: 'error', error: { type: 'invalid_request_error', message } },
});

const openaiRefusal = (message: string, code: string | null, param = 'input'): Refusal => ({
  status: 400,
  type: 'invalid_request_error',
  message,
  body: { error: { message, type: 'invalid_request_error', param, code } },
});

interface Turn {
  role: string;
  /** Indices into `messages`. */
  messages: number[];
}

function turnsOf(messages: readonly unknown[]): Turn[] {
  const turns: Turn[] = [];
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m) || m['role'] === 'system') continue;
    const role = String(m['role']);
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.messages.push(i);
    else turns.push({ role, messages: [i] });
  }
  return turns;
}

function countCacheControls(body: Json): number {
  let n = 0;
  const visit = (block: unknown) => {
    if (!isRecord(block)) return;
    if (isRecord(block['cache_control'])) n += 1;
    if (block['type'] === 'tool_result') for (const part of blocksOf(block['content'])) visit(part);
  };
  for (const tool of Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : []) visit(tool);
  for (const block of Array.isArray(body['system']) ? (body['system'] as unknown[]) : []) visit(block);
  for (const m of Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : []) if (isRecord(m)) for (const block of blocksOf(m['content'])) visit(block);
  return n;
}

function anthropicPairing(messages: readonly unknown[]): Refusal | undefined {
  const turns = turnsOf(messages);
  const blocks = (i: number) => blocksOf((messages[i] as Json)['content']);
  for (const [t, turn] of turns.entries()) {
    if (turn.role !== 'user') continue;
    const previous = turns[t - 1];
    const calls = new Set(previous?.role === 'assistant' ? previous.messages.flatMap((i) => blocks(i).filter((b) => b['type'] === 'tool_use').map((b) => String(b['id']))) : []);
    for (const i of turn.messages) {
      for (const [k, b] of blocks(i).entries()) {
        if (b['type'] === 'tool_result' && !calls.has(String(b['tool_use_id']))) {
          return anthropicRefusal(
            `messages.${i}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b['tool_use_id'])}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
    }
  }
  for (const [t, turn] of turns.entries()) {
    const next = turns[t + 1];
    if (turn.role !== 'assistant' || !next) continue;
    const answered = new Set(next.messages.flatMap((i) => blocks(i).filter((b) => b['type'] === 'tool_result').map((b) => String(b['tool_use_id']))));
    for (const i of turn.messages) {
      const missing = blocks(i).filter((b) => b['type'] === 'tool_use' && !answered.has(String(b['id']))).map((b) => String(b['id']));
      if (missing.length > 0) {
        return anthropicRefusal(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }
  return undefined;
}

/** Why Anthropic would refuse this Messages (or count_tokens) body, or undefined. `promptTokens` undefined skips the window check. */
export function validateAnthropic(body: Json, promptTokens: number | undefined, options: ValidationOptions): Refusal | undefined {
  const messages = body['messages'];
  if (!Array.isArray(messages)) return anthropicRefusal('messages: Field required');
  if (messages.length === 0) return anthropicRefusal('messages: at least one message is required');
  const pairing = anthropicPairing(messages as unknown[]);
  if (pairing) return pairing;
  const controls = countCacheControls(body);
  if (controls > 4) return anthropicRefusal(`A maximum of 4 blocks with cache_control may be provided. Found ${controls}.`);
  if (options.anthropicWindow !== undefined && promptTokens !== undefined && promptTokens > options.anthropicWindow) {
    return anthropicRefusal(`prompt is too long: ${promptTokens} tokens > ${options.anthropicWindow} maximum`);
  }
  return undefined;
}

const OUTPUT_TYPES: Record<string, { call: string; words: string }> = {
  function_call_output: { call: 'function_call', words: 'function call' },
  custom_tool_call_output: { call: 'custom_tool_call', words: 'custom tool call' },
};
const CALL_WORDS: Record<string, string> = { function_call: 'function call', custom_tool_call: 'custom tool call', local_shell_call: 'function call' };

/** Why OpenAI would refuse this Responses body, or undefined. */
export function validateResponses(body: Json, promptTokens: number | undefined, options: ValidationOptions): Refusal | undefined {
  const input = body['input'];
  if (Array.isArray(input) && input.length === 0) return openaiRefusal("Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'empty_array');
  const items = Array.isArray(input) ? (input as unknown[]).filter(isRecord) : [];
  const calls = new Set<string>();
  for (const item of items) {
    const type = String(item['type'] ?? '');
    const output = OUTPUT_TYPES[type];
    if (output && !calls.has(String(item['call_id']))) return openaiRefusal(`No tool call found for ${output.words} output with call_id ${String(item['call_id'])}.`, null);
    if (CALL_WORDS[type] && typeof item['call_id'] === 'string') calls.add(item['call_id']);
  }
  const answered = new Set(items.filter((i) => OUTPUT_TYPES[String(i['type'] ?? '')]).map((i) => String(i['call_id'])));
  const unanswered = items.find((i) => CALL_WORDS[String(i['type'] ?? '')] && !answered.has(String(i['call_id'])));
  if (unanswered) return openaiRefusal(`No tool output found for ${CALL_WORDS[String(unanswered['type'])]!} ${String(unanswered['call_id'])}.`, null);
  if (options.responsesWindow !== undefined && promptTokens !== undefined && promptTokens > options.responsesWindow) {
    return openaiRefusal('Your input exceeds the context window of this model. Please adjust your input and try again.', 'context_length_exceeded');
  }
  return undefined;
}

/** The check of `api`. */
export const validateRequest = (api: WireApi, body: Json, promptTokens: number | undefined, options: ValidationOptions): Refusal | undefined =>
  api === 'anthropic' ? validateAnthropic(body, promptTokens, options) : validateResponses(body, promptTokens, options);
