/**
 * Importer for `claude-code-jsonl`: Claude Code's own session log, one JSON object per line. Pure.
 *
 * Quirks handled (all found in real files):
 * - One API response is written as several `assistant` lines sharing `message.id`, one content
 *   block per line, each repeating the usage so far (output tokens grow): the lines keep one step,
 *   and ONE usage event, from the last line of that id, follows the last of them. Results of
 *   parallel calls are written between those lines as the tools finish, now and then even before
 *   their own call's line (events keep file order; `replay/walkTrace` pairs them up).
 * - `assistant` lines with model `<synthetic>` are written by the client (API errors, "No response
 *   requested."), not by the model: skipped and counted.
 * - `user` lines carry typed text (a string or `text` blocks) or `tool_result` blocks (string or
 *   block content, `is_error`); both can share a line. `isMeta` user lines (skill text, caveats)
 *   reach the model and are kept as user input.
 * - A `system` line with subtype `compact_boundary` and the `isCompactSummary` user line after it
 *   are ONE compaction event carrying the summary.
 * - `isSidechain` lines are a subagent's run (`agentId` when the line has one, else `sidechain`).
 *   A file whose every conversation line is a sidechain is one subagent's own file
 *   (`<session>/subagents/agent-*.jsonl`): imported alone its run is the main thread; joined to its
 *   session (`options.agentId`) every event carries that agent.
 * - `api-request-shape` lines hold the system prompt blocks and tool schemas as sent: a prefix
 *   event each time the shape changes (older clients: the first `prompt_snapshot` attachment that
 *   has tools, when the file has no shape line).
 * - `attachment` lines are text the client added to the conversation: a context event with the
 *   text it recorded (`rendered`, `renderedRole`), or rebuilt from the data and marked estimated
 *   (`claudeCodeAttachment.ts`).
 * - `cost-state` lines are the client's running billed totals (all models, subagents included): a
 *   billed_total event each, from which `joinSubagents` finds the compaction call's usage. Where
 *   its `modelUsage` entry states a model's `contextWindow`, the file's usage events of that model
 *   carry it.
 * - A `compact_boundary` records which earlier messages the client kept after the summary
 *   (`compactMetadata.preservedMessages.uuids`): the compaction event names their lines.
 * - Bookkeeping lines (`file-history-snapshot`, `queue-operation`, `last-prompt`,
 *   `permission-mode`, `summary`, `api-request`, `api-request-blob`, `tools-used`, other
 *   `system` subtypes) are counted as skipped; unknown line types are counted as unknown.
 *
 * Usage follows Anthropic's accounting: `input_tokens` excludes cache reads and cache writes, so it
 * is `input` as it is, with `cache_read_input_tokens` and `cache_creation_input_tokens` beside it.
 */
import { attachmentText } from './claudeCodeAttachment';
import { countKind, TraceImportError, type CompactionEvent, type TraceEvent, type TraceImport, type TraceSource } from './TraceEvent';
import { asCount, asString, isoTime, isRecord, jsonLinesOf, type JsonLine, type JsonLinesInput, type JsonRecord } from './jsonText';

const BOOKKEEPING: ReadonlySet<string> = new Set([
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'permission-mode',
  'attachment',
  'summary',
  'custom-title',
  'tag',
  'agent-name',
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'tools-used',
  'atis-latch',
  'mode',
  'ai-title',
]);
const CONVERSATION: ReadonlySet<string> = new Set(['user', 'assistant']);

export interface ClaudeCodeOptions {
  /** Import the file as this subagent's run, joined to its session: every event carries it. */
  agentId?: string;
}

/** The prefix of a shape or snapshot: system block texts and one JSON text per tool schema. */
function prefixOf(system: unknown, tools: unknown): { system: string[]; tools: string[] } | undefined {
  const texts = Array.isArray(system) ? system.flatMap((b) => (typeof b === 'string' ? [b] : isRecord(b) && typeof b['text'] === 'string' ? [b['text']] : [])) : [];
  const schemas = Array.isArray(tools) ? tools.filter(isRecord).map((t) => JSON.stringify(t)) : [];
  return texts.length + schemas.length > 0 ? { system: texts, tools: schemas } : undefined;
}

/** The client's billed totals of a `cost-state` line, summed over its models. */
function billedTotal(record: JsonRecord): { input: number; cacheRead: number; cacheWrite: number; cacheWrite1h: number; output: number } | undefined {
  const byModel = record['modelUsage'];
  if (!isRecord(byModel)) return undefined;
  const t = { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 };
  for (const u of Object.values(byModel)) {
    if (!isRecord(u)) continue;
    t.input += asCount(u['inputTokens']);
    t.cacheRead += asCount(u['cacheReadInputTokens']);
    t.cacheWrite += asCount(u['cacheCreationInputTokens']);
    t.cacheWrite1h += asCount(u['cacheCreationEphemeral1hInputTokens']);
    t.output += asCount(u['outputTokens']);
  }
  return t;
}
const SYNTHETIC_MODEL = '<synthetic>';

/** Text of tool-result or message content: a string, or text blocks joined; images and documents as placeholders. */
function blocksText(content: unknown, skipped: Record<string, number>): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (!isRecord(b)) continue;
    if (b['type'] === 'text' && typeof b['text'] === 'string') parts.push(b['text']);
    else if (b['type'] === 'image') parts.push('[image]');
    else if (b['type'] === 'document') parts.push('[document]');
    // ToolSearch results name the tools they loaded.
    else if (b['type'] === 'tool_reference') parts.push(`[tool_reference: ${String(b['tool_name'] ?? '')}]`);
    else countKind(skipped, `content block:${String(b['type'])}`);
  }
  return parts.join('\n');
}

function messageOf(record: JsonRecord, file: string, line: number): JsonRecord {
  const message = record['message'];
  if (!isRecord(message)) throw new TraceImportError(file, line, `${String(record['type'])} line has no message object`);
  const content = message['content'];
  if (typeof content !== 'string' && !Array.isArray(content)) throw new TraceImportError(file, line, `${String(record['type'])} line has no message.content (string or array)`);
  return message;
}

/** Events of a Claude Code session log (its text or its parsed lines). Throws {@link TraceImportError} for malformed lines. */
export function importClaudeCode(input: JsonLinesInput, file: string, options: ClaudeCodeOptions = {}): TraceImport {
  const records = jsonLinesOf(input, file);
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const conversation = records.filter((r) => CONVERSATION.has(String(r.value['type'])));
  // A subagent's own file: all its conversation is one sidechain, which is the trace's own run.
  const ownFile = conversation.length > 0 && conversation.every((r) => r.value['isSidechain'] === true);
  const hasShape = records.some((r) => r.value['type'] === 'api-request-shape');
  const lineOfUuid = new Map<string, number>();
  for (const { line, value } of records) if (typeof value['uuid'] === 'string') lineOfUuid.set(value['uuid'], line);

  // The last line of every response id: where its (final) usage is taken and emitted.
  const lastLineOf = new Map<string, number>();
  for (const { line, value } of records) {
    if (value['type'] !== 'assistant' || !isRecord(value['message'])) continue;
    const id = asString(value['message']['id']);
    if (id !== undefined && value['message']['model'] !== SYNTHETIC_MODEL) lastLineOf.set(id, line);
  }

  const events: TraceEvent[] = [];
  const stepOf = new Map<string, number>();
  let steps = 0;
  let agent: string | undefined;
  let boundary: CompactionEvent | undefined;
  let lastSource: TraceSource = { file, line: 1 };

  let shapeSeen: string | undefined;
  let snapshotSeen = false;
  // The window the client states per model (`cost-state` modelUsage, keys without a `[1m]`-style suffix).
  const windowOf = new Map<string, number>();
  const fileAgent = ownFile ? options.agentId : undefined;
  if (fileAgent !== undefined) agent = fileAgent;

  const enterThread = (record: JsonRecord, at: string | undefined, source: TraceSource) => {
    if (ownFile) return;
    const next = record['isSidechain'] === true ? (asString(record['agentId']) ?? 'sidechain') : undefined;
    if (next === agent) return;
    if (agent !== undefined) events.push({ type: 'subagent_return', agentId: agent, ...(at ? { at } : {}), source });
    if (next !== undefined) events.push({ type: 'subagent_spawn', agentId: next, ...(at ? { at } : {}), source });
    agent = next;
  };

  for (const { line, value: record } of records as JsonLine[]) {
    const type = asString(record['type']) ?? '(no type)';
    const at = isoTime(record['timestamp']);
    const source: TraceSource = { file, line };
    lastSource = source;
    const base = () => ({ ...(at ? { at } : {}), ...(agent !== undefined ? { agentId: agent } : {}), source });

    if (type === 'system') {
      if (record['subtype'] === 'compact_boundary') {
        boundary = { type: 'compaction', ...base() };
        const meta = isRecord(record['compactMetadata']) ? record['compactMetadata'] : undefined;
        const preserved = meta && isRecord(meta['preservedMessages']) && Array.isArray(meta['preservedMessages']['uuids']) ? meta['preservedMessages']['uuids'] : [];
        const kept = preserved.flatMap((u) => (typeof u === 'string' && lineOfUuid.has(u) ? [lineOfUuid.get(u) as number] : []));
        if (kept.length > 0) boundary.keptLines = kept.sort((a, b) => a - b);
        events.push(boundary);
      } else countKind(skipped, `system:${String(record['subtype'] ?? '(none)')}`);
      continue;
    }
    if (type === 'api-request-shape') {
      const shape = isRecord(record['shape']) ? record['shape'] : undefined;
      const prefix = shape ? prefixOf(shape['system'], shape['tools']) : undefined;
      const hash = asString(record['shapeHash']) ?? JSON.stringify(prefix);
      countKind(skipped, type);
      if (prefix && hash !== shapeSeen) {
        shapeSeen = hash;
        events.push({ type: 'prefix', ...prefix, ...(at ? { at } : {}), ...(fileAgent !== undefined ? { agentId: fileAgent } : {}), source });
      }
      continue;
    }
    if (type === 'attachment') {
      countKind(skipped, type);
      enterThread(record, at, source);
      const a = isRecord(record['attachment']) ? record['attachment'] : undefined;
      if (a && a['type'] === 'prompt_snapshot' && !hasShape && !snapshotSeen) {
        const prefix = prefixOf(a['systemPrompt'], a['tools']);
        if (prefix && prefix.tools.length > 0) {
          snapshotSeen = true;
          events.push({ type: 'prefix', ...prefix, ...base() });
        }
        continue;
      }
      const sent = attachmentText(record);
      if (sent) events.push({ type: 'context', role: sent.role, kind: sent.kind, text: sent.text, ...(sent.estimated ? { estimated: true } : {}), ...base() });
      continue;
    }
    if (type === 'cost-state') {
      countKind(skipped, type);
      const t = billedTotal(record);
      const byModel = isRecord(record['modelUsage']) ? record['modelUsage'] : {};
      for (const [m, u] of Object.entries(byModel)) if (isRecord(u) && asCount(u['contextWindow']) > 0) windowOf.set(m.replace(/\[[^\]]*\]$/, ''), asCount(u['contextWindow']));
      const usd = typeof record['totalCostUSD'] === 'number' && Number.isFinite(record['totalCostUSD']) ? record['totalCostUSD'] : undefined;
      if (t) events.push({ type: 'billed_total', ...t, ...(usd !== undefined ? { costUsd: usd } : {}), ...(at ? { at } : {}), ...(fileAgent !== undefined ? { agentId: fileAgent } : {}), source });
      continue;
    }
    if (type === 'assistant') {
      const message = messageOf(record, file, line);
      if (message['model'] === SYNTHETIC_MODEL) {
        countKind(skipped, 'assistant:<synthetic>');
        continue;
      }
      enterThread(record, at, source);
      boundary = undefined;
      const id = asString(message['id']);
      let step = id === undefined ? undefined : stepOf.get(id);
      if (step === undefined) {
        step = steps++;
        if (id !== undefined) stepOf.set(id, step);
      }
      const withStep = { ...base(), step };
      const content = message['content'];
      if (typeof content === 'string') {
        if (content !== '') events.push({ type: 'assistant_text', text: content, ...withStep });
      } else {
        for (const b of content as unknown[]) {
          if (!isRecord(b)) continue;
          if (b['type'] === 'text' && typeof b['text'] === 'string') {
            if (b['text'] !== '') events.push({ type: 'assistant_text', text: b['text'], ...withStep });
          } else if (b['type'] === 'tool_use') {
            const callId = asString(b['id']);
            if (!callId) throw new TraceImportError(file, line, 'tool_use block has no id');
            events.push({ type: 'tool_call', callId, name: asString(b['name']) || 'unknown_tool', arguments: JSON.stringify(b['input'] ?? {}), ...withStep });
          } else countKind(skipped, `assistant block:${String(b['type'])}`);
        }
      }
      const usage = isRecord(message['usage']) ? message['usage'] : undefined;
      if (usage && (id === undefined || lastLineOf.get(id) === line)) {
        const model = asString(message['model']);
        const byTtl = isRecord(usage['cache_creation']) ? usage['cache_creation'] : undefined;
        events.push({
          type: 'usage',
          input: asCount(usage['input_tokens']),
          cacheRead: asCount(usage['cache_read_input_tokens']),
          cacheWrite: asCount(usage['cache_creation_input_tokens']),
          ...(byTtl && 'ephemeral_1h_input_tokens' in byTtl ? { cacheWrite1h: asCount(byTtl['ephemeral_1h_input_tokens']) } : {}),
          output: asCount(usage['output_tokens']),
          ...(model ? { model } : {}),
          ...withStep,
        });
      }
      continue;
    }
    if (type === 'user') {
      const message = messageOf(record, file, line);
      enterThread(record, at, source);
      if (record['isCompactSummary'] === true) {
        const summary = blocksText(message['content'], skipped);
        if (boundary) boundary.summary = summary;
        else events.push({ type: 'compaction', summary, ...base() });
        boundary = undefined;
        continue;
      }
      boundary = undefined;
      const content = message['content'];
      if (typeof content === 'string') {
        events.push({ type: 'user_input', text: content, ...base() });
        continue;
      }
      let text: string[] = [];
      const flush = () => {
        if (text.length > 0) events.push({ type: 'user_input', text: text.join('\n'), ...base() });
        text = [];
      };
      for (const b of content as unknown[]) {
        if (!isRecord(b)) continue;
        if (b['type'] === 'tool_result') {
          flush();
          const callId = asString(b['tool_use_id']);
          if (!callId) throw new TraceImportError(file, line, 'tool_result block has no tool_use_id');
          events.push({ type: 'tool_result', callId, content: blocksText(b['content'], skipped), isError: b['is_error'] === true, ...base() });
        } else if (b['type'] === 'text' && typeof b['text'] === 'string') text.push(b['text']);
        else if (b['type'] === 'image') text.push('[image]');
        else if (b['type'] === 'document') text.push('[document]');
        else countKind(skipped, `user block:${String(b['type'])}`);
      }
      flush();
      continue;
    }
    if (BOOKKEEPING.has(type)) countKind(skipped, type);
    else countKind(unknown, type);
  }
  if (agent !== undefined && fileAgent === undefined) events.push({ type: 'subagent_return', agentId: agent, source: lastSource });
  for (const e of events) if (e.type === 'usage' && e.model && windowOf.has(e.model)) e.contextWindow = windowOf.get(e.model);
  return { format: 'claude-code-jsonl', file, events, skipped, unknown };
}
