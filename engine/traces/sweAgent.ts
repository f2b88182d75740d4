/**
 * Importer for `swe-agent-traj`: a SWE-agent `.traj` file, one JSON document holding `trajectory`,
 * `history` and `info`. Both styles SWE-agent writes are read: function calling (assistant history
 * messages carry OpenAI `tool_calls`, observations come back as `tool` messages) and the older
 * thought/action style (the action is a command line inside the response text). Pure.
 *
 * Steps: `trajectory` has one entry per LLM call, requeried calls included (a format, blocklist or
 * syntax error is recorded there but never enters `history`), so step i is `trajectory[i]`: its
 * `thought` (the response without the action; `response` when a step has none) is the assistant
 * text, its `action` one tool call, its `observation` that call's result. An empty action (output
 * that could not be parsed) is no call. The call is the one recorded in history when the next
 * unmatched assistant history message has the same `action` and a `tool_calls` entry (its id, name
 * and arguments; SWE-agent allows one call per response); otherwise (thought/action style, a
 * requeried call) it gets the id `step-<i>`, the action's first word as its name (the SWE-agent
 * command or shell program) and the whole action as the free-form arguments `{"input": action}`.
 * Each result follows its call, so a recorded id that an earlier step already used (hand-written
 * demonstrations reuse them) is made unique as `<id>@step-<i>` rather than read as a duplicate.
 *
 * `history` is the conversation the model saw. Before the first assistant message it gives the
 * system prompt (instructions) and the instance template with the problem statement (user input);
 * later user and tool messages repeat the observations through templates and, like the assistant
 * messages, are counted as skipped. Only the main agent's messages are read (the `agent` of the
 * first one); other agents' are counted as skipped. Per-step copies of the prompt (`query`,
 * `messages`) repeat the history and are not read.
 *
 * Demonstrations (`is_demo` messages: a solved example run put in the prompt before the task, as
 * one templated user message or as the demo's own messages) are prompt, not this session: each
 * becomes an `instructions` event (role system), never user input, a step, a call or a result.
 *
 * Not recorded, so never invented: times (`execution_time` is a duration), error flags on
 * observations (every result has `isError` false) and per-call usage. `info.model_stats` holds run
 * totals only (tokens_sent, tokens_received, api_calls), which are no one call's usage: no usage
 * event is emitted, and the totals are counted as skipped.
 */
import { countKind, TraceImportError, type ToolCallEvent, type TraceEvent, type TraceImport, type TraceSource } from './TraceEvent';
import { arrayElementLines, asString, isRecord, parseJsonDocument, type JsonRecord } from './jsonText';

type Call = Pick<ToolCallEvent, 'callId' | 'name' | 'arguments'>;

/** Text of history content: a string, or its text blocks joined (images as `[image]`); other blocks are counted. */
function contentText(content: unknown, unknown: Record<string, number>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (isRecord(b) && b['type'] === 'text' && typeof b['text'] === 'string') parts.push(b['text']);
    else if (isRecord(b) && (b['type'] === 'image' || b['type'] === 'image_url')) parts.push('[image]');
    else countKind(unknown, `block:${isRecord(b) ? String(b['type']) : '(not an object)'}`);
  }
  return parts.join('\n');
}

/** The call recorded on a function-calling assistant message (its first `tool_calls` entry), if any. */
function recordedCall(m: JsonRecord, source: TraceSource): Call | undefined {
  const first: unknown = Array.isArray(m['tool_calls']) ? m['tool_calls'][0] : undefined;
  if (first === undefined) return undefined;
  if (!isRecord(first) || typeof first['id'] !== 'string' || first['id'] === '') throw new TraceImportError(source.file, source.line, `${source.path ?? ''} tool_calls[0] has no call id`);
  const fn = isRecord(first['function']) ? first['function'] : {};
  const args = fn['arguments'];
  return { callId: first['id'], name: asString(fn['name']) || 'unknown_tool', arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
}

/** Events of a SWE-agent trajectory. Throws {@link TraceImportError} for malformed text, a document of another shape or a step without its action. */
export function importSweAgent(text: string, file: string): TraceImport {
  const doc = parseJsonDocument(text, file);
  if (!isRecord(doc) || !Array.isArray(doc['trajectory'])) throw new TraceImportError(file, 1, 'expected a JSON object with a "trajectory" array (a SWE-agent .traj)');
  const history: unknown = doc['history'] ?? [];
  if (!Array.isArray(history)) throw new TraceImportError(file, 1, '"history" is not an array of messages');
  const trajectory: unknown[] = doc['trajectory'];
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const events: TraceEvent[] = [];

  // History: what the model was given before the first step, and the recorded action of each step it kept.
  const historyLines = arrayElementLines(text, 'history');
  const actions: { action: string | undefined; call: Call | undefined }[] = [];
  let mainAgent: string | undefined;
  let started = false;
  history.forEach((m: unknown, k) => {
    const source: TraceSource = { file, line: historyLines[k] ?? 1, path: `history[${k}]` };
    if (!isRecord(m) || typeof m['role'] !== 'string') throw new TraceImportError(file, source.line, `${source.path} is not a message with a string role`);
    const role = m['role'];
    const agent = asString(m['agent']);
    if (k === 0) mainAgent = agent;
    if (agent !== mainAgent) countKind(skipped, 'history:other agent');
    else if (m['is_demo'] === true || role === 'system') events.push({ type: 'instructions', role: 'system', text: contentText(m['content'], unknown), source });
    else if (role === 'assistant') {
      started = true;
      actions.push({ action: asString(m['action']), call: recordedCall(m, source) });
      countKind(skipped, 'history:assistant');
    } else if (role === 'user' && !started) events.push({ type: 'user_input', text: contentText(m['content'], unknown), source });
    else if (role === 'user' || role === 'tool') countKind(skipped, `history:${role}`);
    else countKind(unknown, `role:${role}`);
  });

  // Trajectory: one step per entry.
  const stepLines = arrayElementLines(text, 'trajectory');
  const usedIds = new Set<string>();
  let next = 0;
  trajectory.forEach((s: unknown, i) => {
    const source: TraceSource = { file, line: stepLines[i] ?? 1, path: `trajectory[${i}]` };
    if (!isRecord(s) || typeof s['action'] !== 'string') throw new TraceImportError(file, source.line, `${source.path} has no string "action"`);
    const action = s['action'];
    const observation = s['observation'];
    if (typeof observation !== 'string') throw new TraceImportError(file, source.line, `${source.path} has no string "observation"`);
    const base = { step: i, source };
    const thought = asString(s['thought']) ?? asString(s['response']) ?? '';
    if (thought !== '') events.push({ type: 'assistant_text', text: thought, ...base });
    if (s['reasoning_content'] !== undefined) countKind(skipped, 'reasoning_content');
    if (action.trim() === '') return;
    const kept = actions[next]?.action === action ? actions[next++] : undefined;
    const call: Call = kept?.call ?? { callId: `step-${i}`, name: action.trim().split(/\s+/)[0] as string, arguments: JSON.stringify({ input: action }) };
    if (usedIds.has(call.callId)) call.callId = `${call.callId}@step-${i}`;
    usedIds.add(call.callId);
    events.push({ type: 'tool_call', ...call, ...base });
    events.push({ type: 'tool_result', callId: call.callId, content: observation, isError: false, source });
  });

  if (isRecord(doc['info']) && isRecord(doc['info']['model_stats'])) countKind(skipped, 'info.model_stats');
  return { format: 'swe-agent-traj', file, events, skipped, unknown };
}
