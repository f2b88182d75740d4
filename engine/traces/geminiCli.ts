/**
 * Importer for Gemini CLI chats (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, and the whole
 * `session-*.json` documents versions before 0.35 wrote). Pure. Learnt from the CLI's
 * `chatRecordingService.ts` and from files the real clients (0.34.0, 0.61.0) wrote against a
 * loopback server:
 * - JSON Lines: a metadata line (`sessionId`, `projectHash`), then message records, `$set`
 *   updates and `$rewindTo` markers. A message is written again, with the same `id`, whenever it
 *   changes (its tokens or tool calls arrive): it is ONE message, read from its last message line
 *   and placed where it first appeared, so a model response is one step with one usage.
 * - A `$set` with `messages` replaces the recorded history. New messages in it are imported where
 *   it stands; one that drops earlier messages and brings new ones (a compressed history) is one
 *   compaction event whose summary is the new user turns' text; one that only drops a tail (a
 *   rolled-back turn) and `$rewindTo` are counted as skipped: the calls before them were made.
 * - `gemini` messages are model responses: visible text (thought parts are skipped), `toolCalls`
 *   (id, name, args), `tokens`. One without model, tokens or calls was written by the client
 *   (e.g. "Binary content received"), not by the model: skipped and counted.
 * - A call's result is the `functionResponse` part of a later `user` message (0.61 records the
 *   tool turn), else the `result` of its tool call record (older versions record nothing else);
 *   it is an error when the call's status is `error` or the response is `{error}`.
 * - `info`, `error` and `warning` messages are shown to the user, never sent to the model: skipped.
 *
 * Usage: Gemini counts cached tokens INSIDE `tokens.input` (promptTokenCount), so `input` is
 * `input - cached` plus `tool` (toolUsePromptTokenCount, prompt-side and counted apart), `cacheRead`
 * is `cached`, and `output` is `output + thoughts` (thinking is billed as output).
 */
import { countKind, TraceImportError, type TraceEvent, type TraceFormat, type TraceImport, type TraceSource } from './TraceEvent';
import { arrayElementLines, asCount, asString, isoTime, isRecord, parseJsonDocument, parseJsonLines, type JsonRecord } from './jsonText';

/** Message types the CLI shows the user and never sends to the model. */
const GEMINI_NOTICES: ReadonlySet<string> = new Set(['info', 'error', 'warning']);

type Item = { kind: 'message'; value: JsonRecord; source: TraceSource } | { kind: 'checkpoint'; messages: { value: JsonRecord; source: TraceSource }[]; source: TraceSource } | { kind: 'rewind'; id: string };

const partsOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : content === undefined || content === null ? [] : [content]);

/** The records of a chat as items in file order, and the label of the form it had. */
function readItems(text: string, file: string, skipped: Record<string, number>, unknown: Record<string, number>): { items: Item[]; format: TraceFormat } {
  const first = text.slice(text.search(/\S/)).split('\n', 1)[0] ?? '';
  let oneLine = false;
  try {
    oneLine = isRecord(JSON.parse(first));
  } catch {
    oneLine = false;
  }
  const listed = (list: unknown, line: number, path: string, lines?: number[]) =>
    (Array.isArray(list) ? list : []).map((value: unknown, i) => {
      const source = { file, line: lines?.[i] ?? line, path: `${path}[${i}]` };
      if (!isRecord(value) || typeof value['id'] !== 'string') throw new TraceImportError(file, source.line, `${source.path} is not a message with a string id`);
      return { value, source };
    });
  if (!oneLine) {
    const doc = parseJsonDocument(text, file);
    if (!isRecord(doc) || !Array.isArray(doc['messages'])) throw new TraceImportError(file, 1, 'expected a Gemini CLI session: a JSON object with a "messages" array');
    const messages = listed(doc['messages'], 1, 'messages', arrayElementLines(text, 'messages'));
    return { items: messages.map((m) => ({ kind: 'message' as const, ...m })), format: 'gemini-cli-json' };
  }
  const items: Item[] = [];
  const records = parseJsonLines(text, file);
  for (const { line, value } of records) {
    const source = { file, line };
    if (typeof value['$rewindTo'] === 'string') items.push({ kind: 'rewind', id: value['$rewindTo'] });
    else if (isRecord(value['$set']) && Array.isArray(value['$set']['messages'])) items.push({ kind: 'checkpoint', messages: listed(value['$set']['messages'], line, '$set.messages'), source });
    else if (isRecord(value['$set'])) countKind(skipped, '$set');
    else if (typeof value['id'] === 'string') items.push({ kind: 'message', value, source });
    else if (typeof value['sessionId'] === 'string') {
      countKind(skipped, 'session metadata');
      if (Array.isArray(value['messages'])) items.push({ kind: 'checkpoint', messages: listed(value['messages'], line, 'messages'), source });
    } else countKind(unknown, 'record without id');
  }
  return { items, format: records.length === 1 && Array.isArray(records[0]?.value['messages']) ? 'gemini-cli-json' : 'gemini-cli-jsonl' };
}

/** Visible text of message content; thought parts skipped, media as placeholders. */
function contentText(content: unknown, skipped: Record<string, number>, unknown: Record<string, number>): string {
  const texts: string[] = [];
  for (const p of partsOf(content)) {
    if (typeof p === 'string') texts.push(p);
    else if (!isRecord(p)) countKind(unknown, 'part:(not an object)');
    else if (typeof p['text'] === 'string' && p['thought'] === true) countKind(skipped, 'part:thought');
    else if (typeof p['text'] === 'string') texts.push(p['text']);
    else if (isRecord(p['inlineData'])) texts.push(String(p['inlineData']['mimeType'] ?? '').startsWith('image/') ? '[image]' : `[${String(p['inlineData']['mimeType'] ?? 'inline data')}]`);
    else if (isRecord(p['fileData'])) texts.push(`[file: ${String(p['fileData']['fileUri'] ?? '')}]`);
    else if (!isRecord(p['functionCall']) && !isRecord(p['functionResponse'])) countKind(unknown, `part:${Object.keys(p)[0] ?? '(empty)'}`);
  }
  return texts.join('\n');
}

/** The text and error flag of a `functionResponse` part. */
function responseOf(fr: JsonRecord): { content: string; error: boolean } {
  const r = fr['response'];
  const media = partsOf(fr['parts']).filter(isRecord).map((p) => (isRecord(p['inlineData']) ? '[image]' : '[file]'));
  const text = isRecord(r) && typeof r['output'] === 'string' ? r['output'] : isRecord(r) && typeof r['error'] === 'string' ? r['error'] : JSON.stringify(r ?? {});
  return { content: [text, ...media].join('\n'), error: isRecord(r) && 'error' in r };
}

/** Events of a Gemini CLI chat. Throws {@link TraceImportError} for malformed text or messages. */
export function importGeminiCli(text: string, file: string): TraceImport {
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const { items, format } = readItems(text, file, skipped, unknown);

  // Each message as last written by a message line (a checkpoint's copy only when no line has it),
  // where each tool call first appeared, each call's status, and the calls a user turn answers.
  const latest = new Map<string, JsonRecord>();
  const callLine = new Map<string, TraceSource>();
  for (const item of items) {
    const messages = item.kind === 'message' ? [item] : item.kind === 'checkpoint' ? item.messages : [];
    for (const m of messages) {
      const id = String(m.value['id']);
      if (item.kind === 'message' || !latest.has(id)) latest.set(id, m.value);
      for (const c of partsOf(m.value['toolCalls'])) if (isRecord(c) && typeof c['id'] === 'string' && !callLine.has(c['id'])) callLine.set(c['id'], m.source);
    }
  }
  const status = new Map<string, string>();
  const answered = new Set<string>();
  for (const m of latest.values()) {
    for (const c of partsOf(m['toolCalls'])) if (isRecord(c) && typeof c['id'] === 'string') status.set(c['id'], String(c['status'] ?? ''));
    if (m['type'] === 'user') for (const p of partsOf(m['content'])) if (isRecord(p) && isRecord(p['functionResponse']) && typeof p['functionResponse']['id'] === 'string') answered.add(p['functionResponse']['id']);
  }

  const events: TraceEvent[] = [];
  const emitted = new Set<string>();
  let current: string[] = [];
  let steps = 0;

  const emit = (raw: JsonRecord, source: TraceSource) => {
    const id = String(raw['id']);
    emitted.add(id);
    const m = latest.get(id) ?? raw;
    const at = isoTime(m['timestamp']);
    const base = { ...(at ? { at } : {}), source };
    const type = String(m['type']);
    if (type === 'user') {
      for (const p of partsOf(m['content'])) {
        if (!isRecord(p) || !isRecord(p['functionResponse'])) continue;
        const fr = p['functionResponse'];
        const callId = asString(fr['id']);
        if (!callId) {
          countKind(skipped, 'functionResponse without id');
          continue;
        }
        const r = responseOf(fr);
        events.push({ type: 'tool_result', callId, content: r.content, isError: r.error || status.get(callId) === 'error', ...base });
      }
      const text = contentText(m['content'], skipped, unknown);
      if (text !== '') events.push({ type: 'user_input', text, ...base });
      return;
    }
    if (type !== 'gemini') {
      countKind(GEMINI_NOTICES.has(type) ? skipped : unknown, `message:${type}`);
      return;
    }
    const calls = partsOf(m['toolCalls']).filter(isRecord);
    if (m['model'] === undefined && !isRecord(m['tokens']) && calls.length === 0) {
      countKind(skipped, 'gemini message without model, tokens or calls (client-written)');
      return;
    }
    const step = steps++;
    const text = contentText(m['content'], skipped, unknown);
    if (text !== '') events.push({ type: 'assistant_text', text, step, ...base });
    calls.forEach((c, i) => {
      const callId = asString(c['id']);
      if (!callId) throw new TraceImportError(file, source.line, `${source.path ?? `message ${id}`} toolCalls[${i}] has no id`);
      events.push({ type: 'tool_call', callId, name: asString(c['name']) ?? 'unknown_tool', arguments: JSON.stringify(c['args'] ?? {}), step, ...base, source: callLine.get(callId) ?? source });
    });
    const tokens = m['tokens'];
    if (isRecord(tokens)) {
      const cached = asCount(tokens['cached']);
      const model = asString(m['model']);
      events.push({
        type: 'usage',
        input: Math.max(0, asCount(tokens['input']) - cached) + asCount(tokens['tool']),
        cacheRead: cached,
        cacheWrite: 0,
        output: asCount(tokens['output']) + asCount(tokens['thoughts']),
        ...(model ? { model } : {}),
        step,
        ...base,
      });
    }
    for (const c of calls) {
      const callId = String(c['id']);
      if (answered.has(callId)) continue;
      const fr = partsOf(c['result']).find((p): p is JsonRecord => isRecord(p) && isRecord(p['functionResponse']));
      if (!fr) continue;
      const r = responseOf(fr['functionResponse'] as JsonRecord);
      events.push({ type: 'tool_result', callId, content: r.content, isError: r.error || c['status'] === 'error', ...base, source: callLine.get(callId) ?? source });
    }
  };

  for (const item of items) {
    if (item.kind === 'rewind') {
      const at = current.indexOf(item.id);
      current = at === -1 ? [] : current.slice(0, at);
      countKind(skipped, '$rewindTo');
    } else if (item.kind === 'message') {
      const id = String(item.value['id']);
      if (emitted.has(id)) continue;
      current.push(id);
      emit(item.value, item.source);
    } else {
      const ids = item.messages.map((m) => String(m.value['id']));
      const dropped = current.some((id) => !ids.includes(id));
      const fresh = item.messages.filter((m) => !emitted.has(String(m.value['id'])));
      if (dropped && fresh.length === 0) countKind(skipped, 'history rolled back');
      const summaries = dropped ? fresh.filter((m) => m.value['type'] === 'user') : [];
      if (summaries.length > 0) {
        for (const m of summaries) emitted.add(String(m.value['id']));
        const summary = summaries.map((m) => contentText(m.value['content'], skipped, unknown)).join('\n');
        const at = isoTime(summaries[0]?.value['timestamp']);
        events.push({ type: 'compaction', ...(summary ? { summary } : {}), ...(at ? { at } : {}), source: summaries[0]?.source ?? item.source });
      }
      for (const m of fresh) if (!emitted.has(String(m.value['id']))) emit(m.value, m.source);
      current = ids;
    }
  }
  return { format, file, events, skipped, unknown };
}
