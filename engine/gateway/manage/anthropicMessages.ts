import { contentLike, isRecord, summarizeInput, textOfContent, type ApiAdapter, type Conversation, type Json, type ToolResultRef } from './conversation';
import { jsonTextOf } from '../jsonText';
import { requireShape } from './ManageError';

/**
 * Manage mode's reading of an Anthropic Messages (or count_tokens) body: `tool_use.id` pairs with
 * `tool_result.tool_use_id`; a replaced result keeps its block, id, `is_error` and markers.
 */

/** A block (or a tool_result's inner parts) without `cache_control`, as the prompt cache sees it. */
function unmarked(block: unknown): unknown {
  if (!isRecord(block)) return block;
  const { cache_control: _marker, ...rest } = block;
  if (Array.isArray(rest['content'])) rest['content'] = rest['content'].map(unmarked);
  return rest;
}

/** Canonical JSON of a value with every `cache_control` left out (only the few marked entries pay for a copy). */
function canonUnmarked(value: unknown): string {
  const json = jsonTextOf(value);
  if (!json.includes('"cache_control"')) return json;
  if (Array.isArray(value)) return JSON.stringify(value.map(unmarked));
  if (isRecord(value) && Array.isArray(value['content'])) return JSON.stringify({ ...value, content: value['content'].map(unmarked) });
  return JSON.stringify(unmarked(value));
}

function readMessages(body: unknown): Conversation {
  requireShape(isRecord(body), 'the request body must be a JSON object');
  const messages = body['messages'];
  requireShape(Array.isArray(messages), '`messages` must be an array');
  const calls = new Map<string, { tool: string; input: string }>();
  const found: { block: Json; at: number }[] = [];
  messages.forEach((message, at) => {
    requireShape(isRecord(message), `messages.${at} must be an object`);
    // Claude Code 2.1.332 sends `role: 'system'` entries among its messages (reminders); they carry no tool results.
    requireShape(message['role'] === 'user' || message['role'] === 'assistant' || message['role'] === 'system', `messages.${at}.role must be "user", "assistant" or "system"`);
    const content = message['content'];
    requireShape(typeof content === 'string' || Array.isArray(content), `messages.${at}.content must be a string or an array`);
    if (typeof content === 'string') return;
    content.forEach((block, b) => {
      requireShape(isRecord(block) && typeof block['type'] === 'string', `messages.${at}.content.${b} must be an object with a type`);
      if (block['type'] === 'tool_use') {
        requireShape(typeof block['id'] === 'string', `messages.${at}.content.${b}.id must be a string`);
        calls.set(block['id'], { tool: typeof block['name'] === 'string' ? block['name'] : '?', input: summarizeInput(block['input']) });
      } else if (block['type'] === 'tool_result') {
        requireShape(typeof block['tool_use_id'] === 'string', `messages.${at}.content.${b}.tool_use_id must be a string`);
        found.push({ block, at });
      }
    });
  });
  const results: ToolResultRef[] = found.map(({ block, at }) => {
    const key = block['tool_use_id'] as string;
    const call = calls.get(key);
    return { key, at, tool: call?.tool ?? '?', input: call?.input ?? '', ...textOfContent(block['content']), isError: block['is_error'] === true };
  });
  const { tools, system } = body;
  return { list: messages, entryText: (i) => canonUnmarked(messages[i]), fixedText: () => `[${canonUnmarked(tools ?? null)},${canonUnmarked(system ?? null)}]`, results, currentTurnFrom: Math.max(0, messages.length - 1) };
}

function replaceMessages(body: Json, conversation: Conversation, texts: ReadonlyMap<string, string>): Json {
  const touched = new Set(conversation.results.filter((r) => texts.has(r.key)).map((r) => r.at));
  const messages = conversation.list.map((message, at) => {
    if (!touched.has(at)) return message;
    const m = message as Json;
    const content = (m['content'] as unknown[]).map((block) => {
      if (!isRecord(block) || block['type'] !== 'tool_result') return block;
      const text = texts.get(block['tool_use_id'] as string);
      return text === undefined ? block : { ...block, content: contentLike(block['content'], text, 'text') };
    });
    return { ...m, content };
  });
  return { ...body, messages };
}

export const anthropicMessages: ApiAdapter = { read: readMessages, replace: replaceMessages };
