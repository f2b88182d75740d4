/**
 * Importer for OpenCode sessions in the shape `opencode export <sessionID>` prints: `{ info,
 * messages: [{ info, parts }] }` (the database reader renders a stored session the same way). Pure.
 * Learnt from OpenCode's `session/message-v2.ts` (parts, `toModelMessages`) and from sessions the
 * real client (opencode-ai 1.18.33) stored and exported against a loopback server:
 * - Messages are in stored order (creation time, then id); parts in id order.
 * - User messages: text parts (not `ignored`) are the user's turn, sent to the model; file parts
 *   become `[file: name]` placeholders; `compaction` (the "what did we do so far?" request),
 *   `subtask` and `agent` parts are counted as skipped. A `system` override is instructions.
 * - Assistant messages: each `step-start` … `step-finish` run is ONE LLM call (one step, one
 *   usage from the step-finish tokens); text and tool parts belong to the open step (one is opened
 *   for output before any step-start); `reasoning`, `snapshot`, `patch`, `retry` parts are skipped.
 * - A `tool` part is the call (callID, tool, state.input) and, once completed or failed, its
 *   result (state.output, or state.error flagged as an error); a pending or running call has no
 *   recorded result and gets none.
 * - An assistant message with `summary: true` answers a compaction: its text is the summary of
 *   ONE compaction event (after its usage), not assistant text.
 *
 * Usage: OpenCode stores `input` without cache reads and writes (`cache.read`, `cache.write`
 * beside it, as the provider SDK reports them apart) and `output` without `reasoning`, so output
 * is `output + reasoning`.
 */
import { countKind, TraceImportError, type TraceEvent, type TraceImport, type TraceSource } from './TraceEvent';
import { arrayElementLines, asCount, asString, isoTime, isRecord, parseJsonDocument, type JsonRecord } from './jsonText';

const SKIPPED_PARTS: ReadonlySet<string> = new Set(['reasoning', 'snapshot', 'patch', 'retry', 'agent', 'subtask', 'compaction']);

/** Events of an OpenCode session document. Throws {@link TraceImportError} for a malformed one. */
export function importOpenCode(text: string, file: string): TraceImport {
  const doc = parseJsonDocument(text, file);
  if (!isRecord(doc) || !Array.isArray(doc['messages'])) throw new TraceImportError(file, 1, 'expected an OpenCode session: a JSON object with "info" and a "messages" array');
  const messages: unknown[] = doc['messages'];
  const lines = arrayElementLines(text, 'messages');
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const events: TraceEvent[] = [];
  let steps = 0;

  messages.forEach((entry: unknown, index) => {
    const line = lines[index] ?? 1;
    if (!isRecord(entry) || !isRecord(entry['info']) || !Array.isArray(entry['parts'])) throw new TraceImportError(file, line, `messages[${index}] is not a message with an info object and a parts array`);
    const info = entry['info'];
    const parts: unknown[] = entry['parts'];
    const created = isoTime(isRecord(info['time']) ? info['time']['created'] : undefined);
    const where = (j?: number): TraceSource => ({ file, line, path: j === undefined ? `messages[${index}]` : `messages[${index}].parts[${j}]` });
    const timed = (source: TraceSource, t?: unknown) => {
      const at = isoTime(t) ?? created;
      return { ...(at ? { at } : {}), source };
    };

    if (info['role'] === 'user') {
      if (typeof info['system'] === 'string' && info['system'] !== '') events.push({ type: 'instructions', role: 'system', text: info['system'], ...timed(where()) });
      const texts: string[] = [];
      parts.forEach((p: unknown) => {
        const type = isRecord(p) ? String(p['type']) : '(not an object)';
        if (isRecord(p) && type === 'text' && typeof p['text'] === 'string') {
          if (p['ignored'] === true) countKind(skipped, 'part:text (ignored)');
          else texts.push(p['text']);
        } else if (isRecord(p) && type === 'file') texts.push(`[file: ${String(p['filename'] ?? p['url'] ?? '')}]`);
        else countKind(SKIPPED_PARTS.has(type) ? skipped : unknown, `part:${type}`);
      });
      if (texts.length > 0) events.push({ type: 'user_input', text: texts.join('\n'), ...timed(where()) });
      return;
    }
    if (info['role'] !== 'assistant') {
      countKind(unknown, `role:${String(info['role'])}`);
      return;
    }

    const model = asString(info['modelID']);
    const summary = info['summary'] === true;
    const summaryTexts: string[] = [];
    let step: number | undefined;
    let finished = false;
    const open = () => (step ??= steps++);
    parts.forEach((p: unknown, j) => {
      const type = isRecord(p) ? String(p['type']) : '(not an object)';
      if (!isRecord(p)) return countKind(unknown, `part:${type}`);
      const source = where(j);
      const time = isRecord(p['time']) ? p['time'] : {};
      if (type === 'step-start') {
        step = steps++;
      } else if (type === 'step-finish') {
        const tokens = isRecord(p['tokens']) ? p['tokens'] : {};
        const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
        events.push({ type: 'usage', input: asCount(tokens['input']), cacheRead: asCount(cache['read']), cacheWrite: asCount(cache['write']), output: asCount(tokens['output']) + asCount(tokens['reasoning']), ...(model ? { model } : {}), step: open(), ...timed(source) });
        finished = true;
        step = undefined;
      } else if (type === 'text' && typeof p['text'] === 'string') {
        const s = open();
        if (summary) summaryTexts.push(p['text']);
        else if (p['text'] !== '') events.push({ type: 'assistant_text', text: p['text'], step: s, ...timed(source, time['start']) });
      } else if (type === 'tool') {
        const callId = asString(p['callID']);
        if (!callId) throw new TraceImportError(file, line, `${source.path ?? ''} is a tool part without a callID`);
        const state = isRecord(p['state']) ? p['state'] : {};
        const stateTime = isRecord(state['time']) ? state['time'] : {};
        events.push({ type: 'tool_call', callId, name: asString(p['tool']) ?? 'unknown_tool', arguments: JSON.stringify(state['input'] ?? {}), step: open(), ...timed(source, stateTime['start']) });
        if (state['status'] === 'completed') events.push({ type: 'tool_result', callId, content: String(state['output'] ?? ''), isError: false, ...timed(source, stateTime['end']) });
        else if (state['status'] === 'error') events.push({ type: 'tool_result', callId, content: String(state['error'] ?? ''), isError: true, ...timed(source, stateTime['end']) });
        else countKind(skipped, `tool without result (${String(state['status'])})`);
      } else {
        countKind(SKIPPED_PARTS.has(type) || type === 'file' ? skipped : unknown, `part:${type}`);
      }
    });
    // Sessions stored before steps were split into parts keep the call's tokens on the message only.
    const tokens = info['tokens'];
    if (!finished && step !== undefined && isRecord(tokens)) {
      const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
      events.push({ type: 'usage', input: asCount(tokens['input']), cacheRead: asCount(cache['read']), cacheWrite: asCount(cache['write']), output: asCount(tokens['output']) + asCount(tokens['reasoning']), ...(model ? { model } : {}), step, ...timed(where()) });
    }
    if (summary) events.push({ type: 'compaction', ...(summaryTexts.length > 0 ? { summary: summaryTexts.join('\n') } : {}), ...timed(where()) });
  });
  return { format: 'opencode-export-json', file, events, skipped, unknown };
}
