/**
 * Importer for ATIF trajectories (the Agent Trajectory Interchange Format of Harbor and
 * Terminal-Bench, `trajectory.json` / `*.trajectory.json`, schema versions ATIF-v1.0 to v1.6).
 * Pure. Learnt from the format's RFC (`docs/rfcs/0001-trajectory-format.md`, v1.4, and the v1.6
 * models, where `message` and result `content` may be content-part arrays):
 * - `steps[]` in order: a `system` step is instructions, a `user` step user input, an `agent`
 *   step ONE LLM call: its `message` the assistant text (`reasoning_content` is skipped), its
 *   `tool_calls` (tool_call_id, function_name, arguments) the calls, its `metrics` the usage, and
 *   its `observation.results` the results: one with a `source_call_id` answers that call; one
 *   without answers no call (an action written in the message, a system operation) and is what
 *   the environment fed back, so it is user input. A result that only refers to a subagent's
 *   trajectory file (`subagent_trajectory_ref`) is counted as skipped: that run is its own file.
 * - Results are never flagged as errors (the format has no such flag); `final_metrics` holds run
 *   totals, not one call's usage, and is counted as skipped.
 *
 * Usage: ATIF's `prompt_tokens` is the whole prompt, `cached_tokens` a part of it (the RFC says so
 * from v1.2), and a cache write reported in `metrics.extra.cache_creation_input_tokens` is part of
 * it too; so `input` is `prompt_tokens - cached_tokens - cache writes`, `cacheRead` the cached
 * tokens, `output` the `completion_tokens` (reasoning included).
 */
import { countKind, TraceImportError, type TraceEvent, type TraceImport, type TraceSource } from './TraceEvent';
import { arrayElementLines, asCount, asString, isoTime, isRecord, parseJsonDocument } from './jsonText';

/** Text of a string or content-part array; images as `[image]`. */
function partsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((p: unknown) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : isRecord(p) && p['type'] === 'image' ? '[image]' : '')).filter((t) => t !== '').join('\n');
}

/** Events of an ATIF trajectory document. Throws {@link TraceImportError} for a malformed one. */
export function importAtifTrajectory(text: string, file: string): TraceImport {
  const doc = parseJsonDocument(text, file);
  if (!isRecord(doc) || !Array.isArray(doc['steps'])) throw new TraceImportError(file, 1, 'expected an ATIF trajectory: a JSON object with a "steps" array');
  const steps: unknown[] = doc['steps'];
  const lines = arrayElementLines(text, 'steps');
  const agent = isRecord(doc['agent']) ? doc['agent'] : {};
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  if (doc['final_metrics'] !== undefined) countKind(skipped, 'final_metrics');
  const events: TraceEvent[] = [];
  let calls = 0;

  steps.forEach((s: unknown, index) => {
    const source: TraceSource = { file, line: lines[index] ?? 1, path: `steps[${index}]` };
    if (!isRecord(s) || typeof s['source'] !== 'string') throw new TraceImportError(file, source.line, `${source.path} is not a step with a string source`);
    const at = isoTime(s['timestamp']);
    const base = { ...(at ? { at } : {}), source };
    const message = partsText(s['message']);
    const kind = s['source'];
    const results = isRecord(s['observation']) && Array.isArray(s['observation']['results']) ? s['observation']['results'] : [];
    if (kind === 'system') {
      if (message !== '') events.push({ type: 'instructions', role: 'system', text: message, ...base });
    } else if (kind === 'user') {
      if (message !== '') events.push({ type: 'user_input', text: message, ...base });
    } else if (kind === 'agent') {
      const step = calls++;
      if (message !== '') events.push({ type: 'assistant_text', text: message, step, ...base });
      if (typeof s['reasoning_content'] === 'string') countKind(skipped, 'reasoning_content');
      const toolCalls = Array.isArray(s['tool_calls']) ? s['tool_calls'] : [];
      toolCalls.forEach((c: unknown, i) => {
        const callId = isRecord(c) ? asString(c['tool_call_id']) : undefined;
        if (!isRecord(c) || !callId) throw new TraceImportError(file, source.line, `${source.path}.tool_calls[${i}] has no tool_call_id`);
        events.push({ type: 'tool_call', callId, name: asString(c['function_name']) ?? 'unknown_tool', arguments: typeof c['arguments'] === 'string' ? c['arguments'] : JSON.stringify(c['arguments'] ?? {}), step, ...base });
      });
      const metrics = s['metrics'];
      if (isRecord(metrics)) {
        const extra = isRecord(metrics['extra']) ? metrics['extra'] : {};
        const cached = asCount(metrics['cached_tokens']);
        const written = asCount(extra['cache_creation_input_tokens']);
        const model = asString(s['model_name']) ?? asString(agent['model_name']);
        events.push({ type: 'usage', input: Math.max(0, asCount(metrics['prompt_tokens']) - cached - written), cacheRead: cached, cacheWrite: written, output: asCount(metrics['completion_tokens']), ...(model ? { model } : {}), step, ...base });
      }
    } else {
      countKind(unknown, `source:${kind}`);
      return;
    }
    results.forEach((r: unknown) => {
      if (!isRecord(r)) return countKind(unknown, 'result:(not an object)');
      const callId = asString(r['source_call_id']);
      const content = partsText(r['content']);
      if (r['content'] === undefined && Array.isArray(r['subagent_trajectory_ref'])) return countKind(skipped, 'subagent_trajectory_ref');
      if (callId) events.push({ type: 'tool_result', callId, content, isError: false, ...base });
      else if (content !== '') events.push({ type: 'user_input', text: content, ...base });
    });
  });
  return { format: 'atif-trajectory-json', file, events, skipped, unknown };
}
