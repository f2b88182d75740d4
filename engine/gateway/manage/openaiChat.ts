import { jsonTextOf } from '../jsonText';
import { contentLike, isRecord, summarizeInput, textOfContent, type ApiAdapter, type Conversation, type Json, type ToolResultRef } from './conversation';
import { requireShape } from './ManageError';

/**
 * Manage mode's reading of an OpenAI Chat Completions body: an assistant's `tool_calls[].id` pairs
 * with a `role: 'tool'` message's `tool_call_id`. A replaced result keeps its message and id.
 */

function readMessages(body: unknown): Conversation {
  requireShape(isRecord(body), 'the request body must be a JSON object');
  const messages = body['messages'];
  requireShape(Array.isArray(messages), '`messages` must be an array');
  const calls = new Map<string, { tool: string; input: string }>();
  const found: { message: Json; at: number }[] = [];
  messages.forEach((message, at) => {
    requireShape(isRecord(message) && typeof message['role'] === 'string', `messages.${at} must be an object with a role`);
    const toolCalls = message['tool_calls'];
    if (toolCalls !== undefined && toolCalls !== null) {
      requireShape(Array.isArray(toolCalls), `messages.${at}.tool_calls must be an array`);
      toolCalls.forEach((call, c) => {
        requireShape(isRecord(call) && typeof call['id'] === 'string', `messages.${at}.tool_calls.${c}.id must be a string`);
        const fn = isRecord(call['function']) ? call['function'] : {};
        calls.set(call['id'], { tool: typeof fn['name'] === 'string' ? fn['name'] : '?', input: summarizeInput(fn['arguments']) });
      });
    }
    if (message['role'] === 'tool') {
      requireShape(typeof message['tool_call_id'] === 'string', `messages.${at}.tool_call_id must be a string`);
      found.push({ message, at });
    }
  });
  const results: ToolResultRef[] = found.map(({ message, at }) => {
    const key = message['tool_call_id'] as string;
    const call = calls.get(key);
    return { key, at, tool: call?.tool ?? '?', input: call?.input ?? '', ...textOfContent(message['content']), isError: false };
  });
  let currentTurnFrom = messages.length;
  while (currentTurnFrom > 0 && (messages[currentTurnFrom - 1] as Json)['role'] === 'tool') currentTurnFrom -= 1;
  const tools = body['tools'];
  return { list: messages, entryText: (i) => jsonTextOf(messages[i]), fixedText: () => jsonTextOf(tools ?? null), results, currentTurnFrom };
}

function replaceMessages(body: Json, conversation: Conversation, texts: ReadonlyMap<string, string>): Json {
  const messages = conversation.list.map((message) => {
    const m = message as Json;
    if (m['role'] !== 'tool') return message;
    const text = texts.get(m['tool_call_id'] as string);
    return text === undefined ? message : { ...m, content: contentLike(m['content'], text, 'text') };
  });
  return { ...body, messages };
}

export const openaiChat: ApiAdapter = { read: readMessages, replace: replaceMessages };
