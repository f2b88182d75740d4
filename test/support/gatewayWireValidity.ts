/**
 * The tests' oracle of what a provider refuses in a raw request body, per API: a tool result
 * whose call is not before it, a call with no result (except in the last turn), a role order that
 * breaks the API's rules, empty content. Returns one line per problem; none means valid.
 */
type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const blocksOf = (m: Json): Json[] => (Array.isArray(m['content']) ? (m['content'] as Json[]) : []);
const emptyContent = (c: unknown): boolean => (typeof c === 'string' ? c.length === 0 : Array.isArray(c) ? c.length === 0 || c.some((b) => isRecord(b) && b['type'] === 'text' && b['text'] === '') : true);

function anthropicProblems(body: Json): string[] {
  const out: string[] = [];
  const messages = body['messages'] as Json[];
  messages.forEach((m, i) => {
    if (m['role'] !== (i % 2 === 0 ? 'user' : 'assistant')) out.push(`messages.${i}: role ${String(m['role'])} breaks the user/assistant alternation`);
    if (emptyContent(m['content'])) out.push(`messages.${i}: empty content`);
    const calls = new Set(i > 0 ? blocksOf(messages[i - 1]!).filter((b) => b['type'] === 'tool_use').map((b) => b['id']) : []);
    for (const b of blocksOf(m)) {
      if (b['type'] === 'tool_result' && !calls.has(b['tool_use_id'])) out.push(`messages.${i}: tool_result ${String(b['tool_use_id'])} has no tool_use just before it`);
      if (b['type'] === 'tool_result' && emptyContent(b['content'])) out.push(`messages.${i}: tool_result ${String(b['tool_use_id'])} is empty`);
    }
    if (i + 1 < messages.length) {
      const answered = new Set(blocksOf(messages[i + 1]!).filter((b) => b['type'] === 'tool_result').map((b) => b['tool_use_id']));
      for (const b of blocksOf(m)) if (b['type'] === 'tool_use' && !answered.has(b['id'])) out.push(`messages.${i}: tool_use ${String(b['id'])} has no tool_result right after it`);
    }
  });
  return out;
}

const RESPONSE_PAIRS: Readonly<Record<string, string>> = { function_call_output: 'function_call', custom_tool_call_output: 'custom_tool_call', local_shell_call_output: 'local_shell_call' };

function responsesProblems(body: Json): string[] {
  const out: string[] = [];
  const input = body['input'] as Json[];
  const open = new Map<string, string>();
  input.forEach((item, i) => {
    const type = String(item['type']);
    const id = String(item['call_id']);
    if (Object.values(RESPONSE_PAIRS).includes(type)) open.set(id, type);
    const wants = RESPONSE_PAIRS[type];
    if (wants !== undefined) {
      if (open.get(id) !== wants) out.push(`input.${i}: ${type} ${id} has no ${wants} before it`);
      else open.delete(id);
      if (typeof item['output'] === 'string' ? item['output'] === '' : emptyContent(item['output'])) out.push(`input.${i}: ${type} ${id} is empty`);
    }
  });
  for (const [id, type] of open) out.push(`${type} ${id} has no output`);
  return out;
}

function chatProblems(body: Json): string[] {
  const out: string[] = [];
  const messages = body['messages'] as Json[];
  let open = new Set<string>();
  messages.forEach((m, i) => {
    if (m['role'] === 'tool') {
      if (!open.delete(String(m['tool_call_id']))) out.push(`messages.${i}: tool result ${String(m['tool_call_id'])} answers no open call`);
      if (emptyContent(m['content'])) out.push(`messages.${i}: empty tool content`);
      return;
    }
    for (const id of open) out.push(`tool call ${id} has no result before messages.${i}`);
    open = new Set(Array.isArray(m['tool_calls']) ? (m['tool_calls'] as Json[]).map((c) => String(c['id'])) : []);
    if (m['content'] !== null && emptyContent(m['content'])) out.push(`messages.${i}: empty content`);
  });
  for (const id of open) out.push(`tool call ${id} has no result`);
  return out;
}

export function wireProblems(api: 'anthropic-messages' | 'openai-responses' | 'openai-chat', body: Json): string[] {
  return api === 'anthropic-messages' ? anthropicProblems(body) : api === 'openai-responses' ? responsesProblems(body) : chatProblems(body);
}

/** The role (or item type) sequence of a body's conversation list. */
export function roleSequence(api: 'anthropic-messages' | 'openai-responses' | 'openai-chat', body: Json): string[] {
  const list = (api === 'openai-responses' ? body['input'] : body['messages']) as Json[];
  return list.map((m) => String(m['type'] ?? m['role']));
}
