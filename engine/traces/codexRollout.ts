/**
 * Importer for `codex-rollout-jsonl`: the Codex CLI rollout, one `{timestamp, type, payload}` object
 * per line. Pure.
 *
 * - `response_item` lines are the conversation as the model saw it: `message` (role user,
 *   assistant, developer or system; `input_text`/`output_text` blocks), `function_call` /
 *   `function_call_output`, `custom_tool_call` / `custom_tool_call_output` (free-form tools such as
 *   `apply_patch`: the raw input becomes the JSON arguments `{"input": "..."}`), `local_shell_call`
 *   / `local_shell_call_output`. `reasoning` (encrypted), `web_search_call`, `ghost_snapshot` and
 *   in-history `compaction` items are skipped and counted; other item types are counted as unknown.
 * - `event_msg` lines are UI events and mostly duplicate response items (`user_message`,
 *   `agent_message`, `exec_command_end`): skipped, except `token_count`, whose `info` holds the
 *   cumulative `total_token_usage` and the `last_token_usage` of the call just finished. A record
 *   whose total equals the previous one (Codex repeats them, e.g. on rate-limit updates) or whose
 *   info is null is no new call. The usage event takes `last_token_usage`.
 * - `compacted` lines replaced the model's history (`message` is the summary; `replacement_history`
 *   is the new history, which restates earlier items): one compaction event with the summary.
 * - `session_meta` gives the base instructions (an instructions event); `turn_context` the model.
 * - `task_started` (and `token_count` info) state the context window the client ran the model with
 *   (`model_context_window`): the usage events after it carry it (`contextWindow`).
 * - Current rollouts (0.17x) write a `token_usage_record` for every model response (`response_id`,
 *   the call's own `usage`) right after its output items, while `token_count` now follows the
 *   tool outputs. When a file has such records, each record is one call (one step) and closes it,
 *   and `token_count` is not read (it would split steps at tool outputs). The `compacted` line
 *   names the compaction call's response (`compaction_response_id`): its usage is marked
 *   `call: 'compaction'` (its request: `compactionRequest.ts`), and its `replacement_history` is
 *   the history the agent continued with (after the base instructions, which every request sends
 *   first; it restates the other developer instructions).
 * - User-role messages the client writes itself (`<environment_context>`, AGENTS.md and
 *   `<user_instructions>` texts) are context events, so the task is the user's own first message.
 *
 * Steps: a model-output item (message from the assistant, a call, reasoning) begins a new step when
 * it follows an input item (user message, tool output) or a new token_count; the token_count after
 * it closes the step. OpenAI counts cached tokens inside `input_tokens`, so `input` is
 * `input_tokens - cached_input_tokens`.
 */
import { CODEX_COMPACTION } from './compactionRequest';
import { countKind, TraceImportError, type TraceEvent, type TraceImport, type TraceSource, type UsageEvent } from './TraceEvent';
import { asCount, asString, isoTime, isRecord, jsonLinesOf, type JsonLinesInput, type JsonRecord } from './jsonText';

const MODEL_OUTPUT: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'reasoning', 'web_search_call']);
const BOOKKEEPING_LINES: ReadonlySet<string> = new Set(['world_state', 'inter_agent_communication_metadata']);

/** The kind of client-written context a user-role message is, or undefined for the user's own text. */
function codexContextKind(text: string): string | undefined {
  const t = text.trimStart();
  if (t.startsWith('<environment_context>')) return 'environment_context';
  if (t.startsWith('<user_instructions>')) return 'user_instructions';
  if (/^# AGENTS\.md instructions/.test(t)) return 'agents_md';
  if (t.startsWith('<turn_aborted>')) return 'turn_aborted';
  return undefined;
}

type HistoryRole = 'user' | 'assistant' | 'system' | 'developer';

/** A `replacement_history` item as the message text it sends (calls and outputs as one line each). */
function historyItem(item: unknown): { role: HistoryRole; text: string } | undefined {
  if (!isRecord(item)) return undefined;
  const type = String(item['type']);
  if (type === 'message') {
    const role = item['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') return undefined;
    return { role, text: messageText(item['content']) };
  }
  if (type === 'function_call' || type === 'custom_tool_call') return { role: 'assistant', text: `${String(item['name'])} ${typeof item['arguments'] === 'string' ? item['arguments'] : JSON.stringify(item['input'] ?? item['arguments'] ?? {})}` };
  if (type.endsWith('_output')) return { role: 'user', text: outputOf(item['output']).content };
  return undefined;
}
const SKIPPED_ITEMS: ReadonlySet<string> = new Set(['reasoning', 'web_search_call', 'ghost_snapshot', 'compaction', 'compaction_summary']);

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (!isRecord(b)) continue;
    if (typeof b['text'] === 'string') parts.push(b['text']);
    else if (b['type'] === 'input_image') parts.push('[image]');
  }
  return parts.join('\n');
}

/**
 * The text of an `agent_message` (Codex multi-agent): its text parts, and an `encrypted_content`
 * part as recorded (the model reads it decrypted; its recorded form is the only measure of it).
 */
function agentMessageText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  return content
    .flatMap((b) => (isRecord(b) ? [typeof b['text'] === 'string' ? b['text'] : typeof b['encrypted_content'] === 'string' ? b['encrypted_content'] : ''] : []))
    .filter((t) => t !== '')
    .join('\n');
}

/** A tool output: plain text, or `{content, success}` (older rollouts), or content items. */
function outputOf(output: unknown): { content: string; isError: boolean } {
  if (typeof output === 'string') return { content: output, isError: false };
  if (isRecord(output)) {
    const content = typeof output['content'] === 'string' ? output['content'] : messageText(output['content_items'] ?? output['content']);
    return { content, isError: output['success'] === false };
  }
  if (Array.isArray(output)) return { content: messageText(output), isError: false };
  return { content: '', isError: false };
}

const callIdOf = (p: JsonRecord, file: string, line: number): string => {
  const id = asString(p['call_id']) ?? asString(p['id']);
  if (!id) throw new TraceImportError(file, line, `${String(p['type'])} item has no call_id`);
  return id;
};

/** Events of a Codex rollout (its text or its parsed lines). Throws {@link TraceImportError} for malformed lines. */
export function importCodexRollout(input: JsonLinesInput, file: string): TraceImport {
  const records = jsonLinesOf(input, file);
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const events: TraceEvent[] = [];
  let model: string | undefined;
  let contextWindow = 0;
  let steps = 0;
  let step: number | undefined;
  let inStep = false;
  let lastTotal = '';
  // Current rollouts: one token_usage_record per call decides the steps.
  const byRecord = records.some((r) => r.value['type'] === 'token_usage_record');
  const usageOfResponse = new Map<string, UsageEvent>();
  const compactionResponses: string[] = [];

  for (const { line, value: record } of records) {
    const type = asString(record['type']) ?? '(no type)';
    const payload = record['payload'];
    const at = isoTime(record['timestamp']);
    const source: TraceSource = { file, line };
    const base = { ...(at ? { at } : {}), source };
    if (!isRecord(payload)) {
      if (['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'].includes(type)) throw new TraceImportError(file, line, `${type} line has no payload object`);
      countKind(unknown, type);
      continue;
    }
    const output = () => {
      if (!inStep) step = steps++;
      inStep = true;
      return { ...base, step: step as number };
    };
    const input = () => {
      if (!byRecord) inStep = false;
      return base;
    };
    const usageOf = (u: JsonRecord, stepNo: number): UsageEvent => {
      const cached = asCount(u['cached_input_tokens']);
      const written = asCount(u['cache_write_input_tokens']);
      return {
        type: 'usage',
        input: Math.max(0, asCount(u['input_tokens']) - cached - written),
        cacheRead: cached,
        cacheWrite: written,
        output: asCount(u['output_tokens']),
        ...(model ? { model } : {}),
        ...(contextWindow > 0 ? { contextWindow } : {}),
        ...base,
        step: stepNo,
      };
    };

    switch (type) {
      case 'session_meta': {
        const instructions = isRecord(payload['base_instructions']) ? asString(payload['base_instructions']['text']) : undefined;
        if (instructions) events.push({ type: 'instructions', role: 'system', text: instructions, ...base });
        else countKind(skipped, 'session_meta');
        break;
      }
      case 'turn_context':
        model = asString(payload['model']) ?? model;
        countKind(skipped, 'turn_context');
        break;
      case 'compacted': {
        const summary = asString(payload['message']);
        const responseId = asString(payload['compaction_response_id']);
        if (responseId) compactionResponses.push(responseId);
        const history = Array.isArray(payload['replacement_history']) ? payload['replacement_history'].map(historyItem).filter((h) => h !== undefined) : [];
        events.push({ type: 'compaction', ...(summary ? { summary } : {}), ...(history.length > 0 ? { history } : {}), ...input() });
        inStep = false;
        break;
      }
      case 'token_usage_record': {
        const u = isRecord(payload['usage']) ? payload['usage'] : undefined;
        if (!u) {
          countKind(skipped, 'token_usage_record (no usage)');
          break;
        }
        if (!inStep) step = steps++;
        const usage = usageOf(u, step as number);
        events.push(usage);
        const id = asString(payload['response_id']);
        if (id) usageOfResponse.set(id, usage);
        inStep = false;
        break;
      }
      case 'event_msg': {
        const kind = String(payload['type']);
        const stated = asCount(kind === 'task_started' ? payload['model_context_window'] : isRecord(payload['info']) ? payload['info']['model_context_window'] : undefined);
        if (stated > 0) contextWindow = stated;
        if (kind !== 'token_count' || byRecord) {
          countKind(skipped, `event_msg:${kind}`);
          break;
        }
        const info = payload['info'];
        const last = isRecord(info) && isRecord(info['last_token_usage']) ? info['last_token_usage'] : undefined;
        const total = isRecord(info) ? JSON.stringify(info['total_token_usage'] ?? null) : '';
        if (!last || total === lastTotal) {
          countKind(skipped, 'event_msg:token_count (no new call)');
          break;
        }
        lastTotal = total;
        // A call with no recorded output item (e.g. the compaction request) is still a call.
        if (!inStep) step = steps++;
        events.push(usageOf(last, step as number));
        inStep = false;
        break;
      }
      case 'response_item': {
        const item = String(payload['type']);
        if (item === 'message') {
          const role = payload['role'];
          const text = messageText(payload['content']);
          const context = role === 'user' ? codexContextKind(text) : undefined;
          if (role === 'assistant') events.push({ type: 'assistant_text', text, ...output() });
          else if (context) events.push({ type: 'context', role: 'user', kind: context, text, ...input() });
          else if (role === 'user') events.push({ type: 'user_input', text, ...input() });
          else if (role === 'developer' || role === 'system') events.push({ type: 'instructions', role, text, ...base });
          else countKind(unknown, `message:${String(role)}`);
        } else if (item === 'agent_message') {
          // A message from another agent of the session (a task for a subagent, a subagent's final answer): input to this one.
          const text = agentMessageText(payload['content']);
          if (text.trim() !== '') events.push({ type: 'user_input', text, ...input() });
        } else if (item === 'function_call') {
          events.push({ type: 'tool_call', callId: callIdOf(payload, file, line), name: asString(payload['name']) || 'unknown_tool', arguments: typeof payload['arguments'] === 'string' ? payload['arguments'] : JSON.stringify(payload['arguments'] ?? {}), ...output() });
        } else if (item === 'custom_tool_call') {
          events.push({ type: 'tool_call', callId: callIdOf(payload, file, line), name: asString(payload['name']) || 'unknown_tool', arguments: JSON.stringify({ input: payload['input'] ?? '' }), ...output() });
        } else if (item === 'local_shell_call') {
          events.push({ type: 'tool_call', callId: callIdOf(payload, file, line), name: 'local_shell', arguments: JSON.stringify(payload['action'] ?? {}), ...output() });
        } else if (item === 'function_call_output' || item === 'custom_tool_call_output' || item === 'local_shell_call_output') {
          events.push({ type: 'tool_result', callId: callIdOf(payload, file, line), ...outputOf(payload['output']), ...input() });
        } else if (SKIPPED_ITEMS.has(item)) {
          if (MODEL_OUTPUT.has(item)) output();
          countKind(skipped, `response_item:${item}`);
        } else countKind(unknown, `response_item:${item}`);
        break;
      }
      default:
        if (BOOKKEEPING_LINES.has(type)) countKind(skipped, type);
        else countKind(unknown, type);
    }
  }
  for (const id of compactionResponses) {
    const usage = usageOfResponse.get(id);
    if (usage) {
      usage.call = 'compaction';
      usage.compactionRequest = CODEX_COMPACTION;
    }
  }
  return { format: 'codex-rollout-jsonl', file, events, skipped, unknown };
}
