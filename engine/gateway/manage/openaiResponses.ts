import { jsonTextOf } from '../jsonText';
import { contentLike, isRecord, summarizeInput, textOfContent, type ApiAdapter, type Conversation, type Json, type ToolResultRef } from './conversation';
import { requireShape } from './ManageError';

/**
 * Manage mode's reading of an OpenAI Responses body: `function_call`, `custom_tool_call` and
 * `local_shell_call` pair with their `*_output` item by `call_id` (a local shell output may name
 * its call by `id`). A replaced output keeps its item, type and id; `prompt_cache_key` and every
 * other field pass through.
 */

const CALLS: Readonly<Record<string, string>> = { function_call: 'function_call_output', custom_tool_call: 'custom_tool_call_output', local_shell_call: 'local_shell_call_output' };
const OUTPUTS = new Set(Object.values(CALLS));

const callIdOf = (item: Json): unknown => item['call_id'] ?? item['id'];

function callInput(item: Json): unknown {
  if (item['type'] === 'function_call') return item['arguments'];
  if (item['type'] === 'custom_tool_call') return typeof item['input'] === 'string' ? item['input'].split('\n', 1)[0] : item['input'];
  return isRecord(item['action']) ? item['action'] : item;
}

function readInput(body: unknown): Conversation {
  requireShape(isRecord(body), 'the request body must be a JSON object');
  const input = body['input'];
  requireShape(input === undefined || typeof input === 'string' || Array.isArray(input), '`input` must be a string or an array');
  const list: unknown[] = Array.isArray(input) ? input : [];
  const calls = new Map<string, { tool: string; input: string }>();
  const found: { item: Json; at: number }[] = [];
  list.forEach((item, at) => {
    requireShape(isRecord(item), `input.${at} must be an object`);
    const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
    requireShape(typeof type === 'string', `input.${at} must have a type or a role`);
    if (type in CALLS || OUTPUTS.has(type)) requireShape(typeof callIdOf(item) === 'string', `input.${at}.call_id must be a string`);
    if (type in CALLS) {
      const tool = type === 'local_shell_call' ? 'local_shell' : typeof item['name'] === 'string' ? item['name'] : '?';
      calls.set(callIdOf(item) as string, { tool, input: summarizeInput(callInput(item)) });
    } else if (OUTPUTS.has(type)) found.push({ item, at });
  });
  const results: ToolResultRef[] = found.map(({ item, at }) => {
    const key = callIdOf(item) as string;
    const call = calls.get(key);
    return { key, at, tool: call?.tool ?? '?', input: call?.input ?? '', ...textOfContent(item['output']), isError: false };
  });
  let currentTurnFrom = list.length;
  while (currentTurnFrom > 0 && OUTPUTS.has((list[currentTurnFrom - 1] as Json)['type'] as string)) currentTurnFrom -= 1;
  const { instructions, tools } = body;
  return { list, entryText: (i) => jsonTextOf(list[i]), fixedText: () => `[${jsonTextOf(instructions ?? null)},${jsonTextOf(tools ?? null)}]`, results, currentTurnFrom };
}

function replaceInput(body: Json, conversation: Conversation, texts: ReadonlyMap<string, string>): Json {
  if (!Array.isArray(body['input'])) return body;
  const input = conversation.list.map((item) => {
    const it = item as Json;
    if (!OUTPUTS.has(it['type'] as string)) return item;
    const text = texts.get(callIdOf(it) as string);
    return text === undefined ? item : { ...it, output: contentLike(it['output'], text, 'input_text') };
  });
  return { ...body, input };
}

export const openaiResponses: ApiAdapter = { read: readInput, replace: replaceInput };
