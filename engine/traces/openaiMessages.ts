/**
 * Importer for `openai-messages-json`: one JSON document holding an OpenAI-style message list,
 * either `{ "messages": [...], "meta": {...} }` or a bare array. Seen in the wild as conversions of
 * Claude Code, Codex CLI and OpenCode sessions, and as mini-swe-agent trajectories. Pure.
 *
 * Shapes handled (all found in real files):
 * - `content` as a string or as typed blocks: `text`, `input_text`, `output_text`, `tool_output`,
 *   `reasoning`/`thinking` (skipped), `tool_call` and `tool_use` (calls, with `tool_call_id`,
 *   `name`, `arguments`), images (a `[image]` placeholder). Calls are also read from the standard
 *   `tool_calls` array when no block carries them.
 * - Roles `user`, `assistant`, `tool` (`tool_call_id`), `system`/`developer` (instructions), and
 *   merged subagent messages with a role like `assistant-subagent-<agentId>` whose
 *   `_metadata.original_role` says what they were (user/assistant/tool). Unknown roles are counted.
 * - Converted Claude Code sessions split one API response into one message per content block, and
 *   interleave the results of parallel calls between them; the steps below put them back together.
 *
 * Steps: an assistant message's LLM call is found, in order of preference, by
 * `_metadata.message_id` (OpenCode), by a `meta.token_counts` record with the same timestamp
 * (converted Claude Code, where most assistant messages have one: consecutive records with the same
 * prompt-side usage are one call), or else by position (a run of assistant messages with nothing
 * between them is one call; how converted Codex sessions are read).
 *
 * Usage: per message from `_metadata.tokens` (OpenCode: `input` excludes cache reads and writes)
 * or `extra.response.usage` / `usage` (Chat Completions: `prompt_tokens` includes
 * `prompt_tokens_details.cached_tokens`); otherwise from `meta.token_counts`, whose
 * `last_token_usage.input_tokens` includes `cached_input_tokens` only when the session came from
 * Codex (`session_meta.originator` mentions codex). Each usage event follows the last message of its step.
 */
import { countKind, TraceImportError, type TraceEvent, type TraceImport, type TraceSource, type UsageEvent } from './TraceEvent';
import { arrayElementLines, asCount, asString, isoTime, isRecord, parseJsonDocument, timeMs, type JsonRecord } from './jsonText';

type Role = 'user' | 'assistant' | 'tool' | 'system' | 'developer';
const ROLES: ReadonlySet<string> = new Set<Role>(['user', 'assistant', 'tool', 'system', 'developer']);
const SUBAGENT_ROLE = /^[a-z]+-subagent-(.+)$/i;
const TEXT_BLOCKS: ReadonlySet<string> = new Set(['text', 'input_text', 'output_text', 'tool_output', 'tool_result']);
const CALL_BLOCKS: ReadonlySet<string> = new Set(['tool_call', 'tool_use', 'function_call']);
const SKIPPED_BLOCKS: ReadonlySet<string> = new Set(['reasoning', 'thinking', 'redacted_thinking']);
const IMAGE_BLOCKS: ReadonlySet<string> = new Set(['image', 'image_url', 'input_image']);

/** One message as read: its thread, effective role and place. */
interface Read {
  index: number;
  raw: JsonRecord;
  role: Role;
  agentId: string | undefined;
  ms: number | undefined;
  at: string | undefined;
  source: TraceSource;
}

/** A `meta.token_counts` record run: consecutive records of one call. */
interface UsageRun {
  usage: Omit<UsageEvent, 'source' | 'type' | 'step'>;
  ms: number[];
  at: string | undefined;
  index: number;
}

const argumentsText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? {}));

/** Text of string or block content; images become `[image]`; reasoning blocks are counted as skipped. */
function contentText(content: unknown, skipped: Record<string, number>, unknown: Record<string, number>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (typeof b === 'string') parts.push(b);
    else if (!isRecord(b)) countKind(unknown, 'block:(not an object)');
    else if (TEXT_BLOCKS.has(String(b['type'])) && typeof b['text'] === 'string') parts.push(b['text']);
    else if (TEXT_BLOCKS.has(String(b['type'])) && typeof b['content'] === 'string') parts.push(b['content']);
    // Converted subagent (Agent tool) results nest the blocks: `{type: 'tool_output', text: [{type: 'text', ...}]}`.
    else if (TEXT_BLOCKS.has(String(b['type'])) && Array.isArray(b['text'] ?? b['content'])) parts.push(contentText(b['text'] ?? b['content'], skipped, unknown));
    else if (IMAGE_BLOCKS.has(String(b['type']))) parts.push('[image]');
    else if (b['type'] === 'tool_reference') parts.push(`[tool_reference: ${String(b['tool_name'] ?? '')}]`);
    else if (SKIPPED_BLOCKS.has(String(b['type']))) countKind(skipped, `block:${String(b['type'])}`);
    else if (!CALL_BLOCKS.has(String(b['type']))) countKind(unknown, `block:${String(b['type'])}`);
  }
  return parts.join('\n');
}

/** Usage recorded on the message itself (OpenCode `_metadata.tokens`, Chat Completions `usage`). */
function messageUsage(m: JsonRecord): Omit<UsageEvent, 'source' | 'type' | 'step'> | undefined {
  const meta = isRecord(m['_metadata']) ? m['_metadata'] : {};
  const tokens = meta['tokens'];
  if (isRecord(tokens)) {
    const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
    return { input: asCount(tokens['input']), cacheRead: asCount(cache['read']), cacheWrite: asCount(cache['write']), output: asCount(tokens['output']) };
  }
  const response = isRecord(m['extra']) && isRecord(m['extra']['response']) ? m['extra']['response'] : undefined;
  const usage = isRecord(m['usage']) ? m['usage'] : response && isRecord(response['usage']) ? response['usage'] : undefined;
  if (!usage) return undefined;
  const details = isRecord(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {};
  const cached = asCount(details['cached_tokens']);
  const model = asString(response?.['model']) ?? asString(m['model']);
  return {
    input: Math.max(0, asCount(usage['prompt_tokens']) - cached),
    cacheRead: cached,
    cacheWrite: 0,
    output: asCount(usage['completion_tokens']),
    ...(model ? { model } : {}),
  };
}

/** `meta.token_counts` as runs of one call each (records with the same prompt-side usage in a row). */
function usageRuns(meta: JsonRecord): UsageRun[] {
  const counts = Array.isArray(meta['token_counts']) ? meta['token_counts'] : [];
  const session = isRecord(meta['session_meta']) ? meta['session_meta'] : {};
  const cachedInInput = /codex/i.test(String(session['originator'] ?? meta['originator'] ?? ''));
  const contexts = (Array.isArray(meta['turn_contexts']) ? meta['turn_contexts'] : []).filter(isRecord);
  const modelAt = (ms: number | undefined): string | undefined => {
    let model: string | undefined;
    for (const c of contexts) {
      const t = timeMs(c['_timestamp']);
      if (model !== undefined && ms !== undefined && t !== undefined && t > ms) break;
      model = asString(c['model']) ?? model;
    }
    return model;
  };
  const runs: UsageRun[] = [];
  let previousKey = '';
  counts.forEach((record: unknown, index) => {
    if (!isRecord(record) || !isRecord(record['info']) || !isRecord(record['info']['last_token_usage'])) return;
    const last = record['info']['last_token_usage'];
    const input = asCount(last['input_tokens']);
    const cached = asCount(last['cached_input_tokens']);
    const key = `${input}/${cached}`;
    const ms = timeMs(record['_timestamp']);
    const inclusive = cachedInInput && cached <= input;
    const model = modelAt(ms);
    const usage = { input: inclusive ? input - cached : input, cacheRead: cached, cacheWrite: 0, output: asCount(last['output_tokens']), ...(model ? { model } : {}) };
    const open = runs[runs.length - 1];
    if (open && key === previousKey) {
      open.usage = usage;
      if (ms !== undefined) open.ms.push(ms);
      open.at = isoTime(record['_timestamp']) ?? open.at;
    } else {
      runs.push({ usage, ms: ms === undefined ? [] : [ms], at: isoTime(record['_timestamp']), index });
    }
    previousKey = key;
  });
  return runs;
}

/** The message list and its metadata, or an error at line 1 for a document of another shape. */
function messagesOf(doc: unknown, file: string): { messages: unknown[]; meta: JsonRecord; key: string | undefined } {
  if (Array.isArray(doc)) return { messages: doc, meta: {}, key: undefined };
  if (isRecord(doc) && Array.isArray(doc['messages'])) return { messages: doc['messages'], meta: isRecord(doc['meta']) ? doc['meta'] : {}, key: 'messages' };
  throw new TraceImportError(file, 1, 'expected a JSON object with a "messages" array (or a JSON array of messages)');
}

/** Events of an openai-messages-json document. Throws {@link TraceImportError} for malformed text or messages. */
export function importOpenAIMessages(text: string, file: string): TraceImport {
  const doc = parseJsonDocument(text, file);
  const { messages, meta, key } = messagesOf(doc, file);
  const lines = arrayElementLines(text, key);
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const path = key ?? '';

  // Read every message: effective role, thread, time, place.
  const read: Read[] = [];
  messages.forEach((raw: unknown, index) => {
    const source: TraceSource = { file, line: lines[index] ?? 1, path: `${path}[${index}]` };
    if (!isRecord(raw)) throw new TraceImportError(file, source.line, `${source.path} is not a message object`);
    const role = raw['role'];
    if (typeof role !== 'string') throw new TraceImportError(file, source.line, `${source.path} has no string role`);
    const recorded = isRecord(raw['_metadata']) ? raw['_metadata'] : {};
    const sub = SUBAGENT_ROLE.exec(role);
    let effective = role;
    let agentId: string | undefined;
    if (sub || recorded['source'] === 'subagent') {
      agentId = sub?.[1] ?? 'subagent';
      const original = asString(recorded['original_role']);
      effective = original !== undefined && ROLES.has(original) ? original : 'assistant';
    }
    if (!ROLES.has(effective)) {
      countKind(unknown, `role:${role}`);
      return;
    }
    const stamp = recorded['timestamp'] ?? raw['timestamp'] ?? (isRecord(raw['extra']) ? raw['extra']['timestamp'] : undefined);
    read.push({ index, raw, role: effective as Role, agentId, ms: timeMs(stamp), at: isoTime(stamp), source });
  });

  // Steps of assistant messages (see the module comment), numbered in order of first appearance.
  const perMessageUsage = read.some((r) => r.role === 'assistant' && messageUsage(r.raw) !== undefined);
  const runs = perMessageUsage ? [] : usageRuns(meta);
  const runAt = new Map<number, number>();
  runs.forEach((run, i) => {
    for (const ms of run.ms) if (!runAt.has(ms)) runAt.set(ms, i);
  });
  // Times identify calls only where the records were written per message (converted Claude Code:
  // most main-thread assistant messages share a record's time); elsewhere a match is a coincidence.
  const mainAssistants = read.filter((r) => r.role === 'assistant' && r.agentId === undefined);
  if (mainAssistants.filter((r) => r.ms !== undefined && runAt.has(r.ms)).length * 2 < mainAssistants.length) runAt.clear();
  const stepOf = new Map<number, number>();
  const stepByKey = new Map<string, number>();
  const lastOfStep = new Map<number, number>();
  const runStep = new Map<number, number>();
  const thread = new Map<string, { key: string; assistant: boolean }>();
  let steps = 0;
  let fresh = 0;
  const timeline: { ms: number; step: number }[] = [];
  for (const r of read) {
    const t = r.agentId ?? '';
    const prev = thread.get(t);
    if (r.role !== 'assistant') {
      if (prev) prev.assistant = false;
      continue;
    }
    const messageId = asString(isRecord(r.raw['_metadata']) ? r.raw['_metadata']['message_id'] : undefined);
    const run = r.ms === undefined ? undefined : runAt.get(r.ms);
    const key = messageId !== undefined ? `m:${messageId}` : run !== undefined ? `u:${run}` : prev?.assistant ? prev.key : `p:${fresh++}`;
    let step = stepByKey.get(key);
    if (step === undefined) {
      step = steps++;
      stepByKey.set(key, step);
    }
    if (run !== undefined && !runStep.has(run)) runStep.set(run, step);
    stepOf.set(r.index, step);
    lastOfStep.set(step, r.index);
    if (r.ms !== undefined) timeline.push({ ms: r.ms, step });
    thread.set(t, { key, assistant: true });
  }

  // Usage events waiting for the last message of their step; a run matched to no message goes to
  // the step of the latest assistant message recorded at or before it.
  const pending = new Map<number, UsageEvent[]>();
  const early: UsageEvent[] = [];
  runs.forEach((run, i) => {
    let step = runStep.get(i);
    const last = run.ms[run.ms.length - 1];
    if (step === undefined && last !== undefined) for (const p of timeline) if (p.ms <= last) step = p.step;
    const event: UsageEvent = { type: 'usage', ...run.usage, ...(run.at ? { at: run.at } : {}), ...(step === undefined ? {} : { step }), source: { file, line: 1, path: `meta.token_counts[${run.index}]` } };
    if (step === undefined) early.push(event);
    else pending.set(step, [...(pending.get(step) ?? []), event]);
  });

  const events: TraceEvent[] = [...early];
  let agent: string | undefined;
  for (const r of read) {
    if (r.agentId !== agent) {
      if (agent !== undefined) events.push({ type: 'subagent_return', agentId: agent, ...(r.at ? { at: r.at } : {}), source: r.source });
      if (r.agentId !== undefined) events.push({ type: 'subagent_spawn', agentId: r.agentId, ...(r.at ? { at: r.at } : {}), source: r.source });
      agent = r.agentId;
    }
    const base = { ...(r.at ? { at: r.at } : {}), ...(r.agentId ? { agentId: r.agentId } : {}), source: r.source };
    const m = r.raw;
    switch (r.role) {
      case 'user':
        events.push({ type: 'user_input', text: contentText(m['content'], skipped, unknown), ...base });
        break;
      case 'system':
      case 'developer':
        events.push({ type: 'instructions', role: r.role, text: contentText(m['content'], skipped, unknown), ...base });
        break;
      case 'tool': {
        const callId = asString(m['tool_call_id']) ?? asString(m['tool_use_id']);
        if (!callId) {
          countKind(skipped, 'tool message without tool_call_id');
          break;
        }
        const blocks = Array.isArray(m['content']) ? m['content'] : [];
        const isError = m['is_error'] === true || blocks.some((b: unknown) => isRecord(b) && b['is_error'] === true);
        events.push({ type: 'tool_result', callId, content: contentText(m['content'], skipped, unknown), isError, ...base });
        break;
      }
      case 'assistant':
        assistantEvents(r, stepOf.get(r.index), base, events, skipped, unknown);
        break;
    }
    const step = stepOf.get(r.index);
    if (step !== undefined) {
      const usage = messageUsage(m);
      if (usage) events.push({ type: 'usage', ...usage, step, ...base });
      if (lastOfStep.get(step) === r.index) events.push(...(pending.get(step) ?? []));
    }
  }
  if (agent !== undefined) events.push({ type: 'subagent_return', agentId: agent, source: { file, line: lines[messages.length - 1] ?? 1, path: `${path}[${messages.length - 1}]` } });
  return { format: 'openai-messages-json', file, events, skipped, unknown };
}

/** Text and tool-call events of one assistant message, in block order; `tool_calls` fills in calls no block carries. */
function assistantEvents(
  r: Read,
  step: number | undefined,
  base: { at?: string; agentId?: string; source: TraceSource },
  events: TraceEvent[],
  skipped: Record<string, number>,
  unknown: Record<string, number>,
): void {
  const m = r.raw;
  const withStep = { ...base, ...(step === undefined ? {} : { step }) };
  const seen = new Set<string>();
  const call = (id: unknown, name: unknown, args: unknown, where: string) => {
    if (typeof id !== 'string' || id === '') throw new TraceImportError(r.source.file, r.source.line, `${r.source.path ?? ''} ${where} has no call id`);
    if (seen.has(id)) return;
    seen.add(id);
    events.push({ type: 'tool_call', callId: id, name: typeof name === 'string' && name !== '' ? name : 'unknown_tool', arguments: argumentsText(args), ...withStep });
  };
  const content = m['content'];
  if (Array.isArray(content)) {
    for (const b of content) {
      if (isRecord(b) && CALL_BLOCKS.has(String(b['type']))) {
        call(b['tool_call_id'] ?? b['id'] ?? b['call_id'], b['name'], b['arguments'] ?? b['input'], `${String(b['type'])} block`);
        continue;
      }
      const text = contentText([b], skipped, unknown);
      if (text !== '') events.push({ type: 'assistant_text', text, ...withStep });
    }
  } else if (typeof content === 'string' && content !== '') {
    events.push({ type: 'assistant_text', text: content, ...withStep });
  }
  const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'] : [];
  calls.forEach((c: unknown, i) => {
    const fn = isRecord(c) && isRecord(c['function']) ? c['function'] : {};
    call(isRecord(c) ? c['id'] : undefined, fn['name'], fn['arguments'], `tool_calls[${i}]`);
  });
}
