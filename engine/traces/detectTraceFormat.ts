/**
 * Format detection by positive evidence: each format is recognised by keys and values only it
 * writes, looking at several JSON Lines records or at the outline of a JSON document
 * (`documentShape`), never by the file's name. Pure.
 */
import { documentShape, type DocumentShape } from './documentShape';
import { isRecord, jsonLinesText, type JsonLine, type JsonRecord } from './jsonText';
import { TraceImportError, type TraceFormat } from './TraceEvent';

/** The format chosen for a trace and the evidence that decided it. */
export interface TraceFormatDecision {
  format: TraceFormat;
  /** What in the text decided, e.g. `line 1 has sessionId and projectHash (Gemini CLI metadata)`. */
  reason: string;
}

const CODEX_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CLAUDE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'last-prompt', 'permission-mode', 'attachment']);
const GEMINI_TYPES: ReadonlySet<string> = new Set(['user', 'gemini', 'info', 'error', 'warning']);
/** JSON Lines records looked at before giving up. */
const MAX_RECORDS = 20;
const TRIED = 'Claude Code log, Codex rollout, Gemini CLI chat (.jsonl or .json), OpenCode export, ATIF trajectory, SWE-agent trajectory, mini-swe-agent trajectory, OpenAI-style message document';

/** Why one JSON Lines record is of a format, or undefined. */
function recordEvidence(r: JsonRecord, line: number): TraceFormatDecision | undefined {
  const type = typeof r['type'] === 'string' ? r['type'] : undefined;
  if ('payload' in r && type !== undefined && CODEX_TYPES.has(type)) return { format: 'codex-rollout-jsonl', reason: `line ${line} is a Codex ${type} record with a payload` };
  if (typeof r['sessionId'] === 'string' && typeof r['projectHash'] === 'string') return { format: 'gemini-cli-jsonl', reason: `line ${line} has sessionId and projectHash (Gemini CLI session metadata)` };
  if (isRecord(r['$set']) || typeof r['$rewindTo'] === 'string') return { format: 'gemini-cli-jsonl', reason: `line ${line} is a Gemini CLI ${'$set' in r ? '$set' : '$rewindTo'} record` };
  if (type === 'gemini' && typeof r['id'] === 'string') return { format: 'gemini-cli-jsonl', reason: `line ${line} is a Gemini CLI message of type gemini` };
  if (type !== undefined && CLAUDE_TYPES.has(type) && ('uuid' in r || 'sessionId' in r || 'message' in r || !GEMINI_TYPES.has(type))) return { format: 'claude-code-jsonl', reason: `line ${line} is a Claude Code ${type} line` };
  if ('sessionId' in r || 'uuid' in r) return { format: 'claude-code-jsonl', reason: `line ${line} has ${'uuid' in r ? 'uuid' : 'sessionId'} (Claude Code)` };
  return undefined;
}

/** Why a JSON document (its outline) is of a format, or undefined. */
function documentEvidence(shape: DocumentShape): TraceFormatDecision | undefined {
  if (shape.root === 'array') return { format: 'openai-messages-json', reason: 'the document is a JSON array (an OpenAI-style message list)' };
  const k = shape.keys;
  const version = k.get('schema_version')?.text;
  const steps = k.get('steps');
  if (version?.startsWith('ATIF') || (steps?.kind === 'array' && k.get('agent')?.kind === 'object' && steps.firstKeys?.includes('step_id'))) {
    return { format: 'atif-trajectory-json', reason: version ? `schema_version is ${version}` : 'the root has an agent object and steps with step_id (ATIF)' };
  }
  const messages = k.get('messages');
  if (messages?.kind === 'array' && k.get('sessionId')?.kind === 'string' && (k.has('projectHash') || messages.firstKeys?.includes('type'))) {
    return { format: 'gemini-cli-json', reason: 'the root has sessionId, projectHash and messages (Gemini CLI session document)' };
  }
  if (messages?.kind === 'array' && k.get('info')?.kind === 'object' && messages.firstKeys?.includes('info') && messages.firstKeys.includes('parts')) {
    return { format: 'opencode-export-json', reason: 'the root has info and messages of {info, parts} (opencode export)' };
  }
  if (k.get('trajectory')?.kind === 'array' && messages?.kind !== 'array') return { format: 'swe-agent-traj', reason: 'the root has a trajectory array and no messages (SWE-agent .traj)' };
  if (messages?.kind === 'array') {
    const mini = k.get('trajectory_format')?.text;
    if (mini?.startsWith('mini-swe-agent')) return { format: 'mini-swe-agent-traj-json', reason: `trajectory_format is ${mini}` };
    return { format: 'openai-messages-json', reason: 'the root has a messages array (OpenAI-style message document)' };
  }
  return undefined;
}

/**
 * The format of trace `text` and why (`[trace-detect]`). A text whose first record is a JSON object
 * on one line is read as JSON Lines: the first of up to 20 records that carries a format's
 * distinguishing keys decides (a record that proves nothing, such as a Gemini CLI user message
 * that could also be a Claude Code one, lets the next decide). Otherwise, or when no record
 * decides, the text is read as one JSON document by its outline. Throws {@link TraceImportError},
 * naming the formats tried and the first line that fit none, when no evidence is found.
 */
export function explainTraceFormat(text: string, file: string): TraceFormatDecision {
  const start = text.search(/\S/);
  if (start === -1) throw new TraceImportError(file, 1, 'the file is empty');
  const firstLine = text.slice(0, start).split('\n').length;
  let line = firstLine;
  let undecided: number | undefined;
  let offset = start;
  for (let seen = 0; offset < text.length && seen < MAX_RECORDS; ) {
    const nl = text.indexOf('\n', offset);
    const raw = text.slice(offset, nl === -1 ? text.length : nl);
    if (raw.trim() !== '') {
      let record: unknown;
      try {
        record = JSON.parse(raw);
      } catch {
        break;
      }
      if (!isRecord(record)) break;
      if (seen === 0 && !(nl !== -1 && text.slice(nl).trim() !== '')) {
        // One record on one line: a whole JSON document on one line, else one JSON Lines record.
        const decided = documentEvidence(documentShape(raw)) ?? recordEvidence(record, line);
        if (decided) return decided;
        undecided ??= line;
        break;
      }
      const decided = recordEvidence(record, line);
      if (decided) return decided;
      undecided ??= line;
      seen++;
    }
    if (nl === -1) break;
    offset = nl + 1;
    line++;
  }
  const decided = documentEvidence(documentShape(text.slice(start)));
  if (decided) return decided;
  throw new TraceImportError(file, undecided ?? firstLine, `unrecognised trace format: this line fits none of the formats tried (${TRIED})`);
}

/** The format of trace `text` (see {@link explainTraceFormat}). */
export function detectTraceFormat(text: string, file: string): TraceFormat {
  return explainTraceFormat(text, file).format;
}

/**
 * The format of a JSON Lines trace from its records, parsed already (a live session's): the same
 * decision {@link detectTraceFormat} makes from their text, without parsing any line again. One
 * record alone may be a whole document on one line, so it is decided from its text.
 */
export function detectRecordsFormat(records: readonly JsonLine[], file: string): TraceFormat {
  if (records.length === 0) throw new TraceImportError(file, 1, 'the file is empty');
  const head = records.slice(0, MAX_RECORDS + 1);
  if (records.length > 1) {
    for (const r of head.slice(0, MAX_RECORDS)) {
      const decided = recordEvidence(r.value, r.line);
      if (decided) return decided.format;
    }
  }
  // Undecided by any record (or one record alone): the first records' text decides, as it would.
  return detectTraceFormat(jsonLinesText(head), file);
}
