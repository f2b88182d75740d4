/**
 * Format detection and dispatch from trace TEXT to events. Pure: `importTraceFile` is the only part
 * that touches the file system.
 */
import { importClaudeCode } from './claudeCode';
import { claudeSession } from './claudeSession';
import { importCodexRollout } from './codexRollout';
import { importOpenAIMessages } from './openaiMessages';
import { importSweAgent } from './sweAgent';
import { TraceImportError, type TraceFormat, type TraceImport } from './TraceEvent';
import { isRecord, rootArrayKeys } from './jsonText';

const CODEX_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CLAUDE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'last-prompt', 'permission-mode', 'attachment']);

/**
 * The format of a trace, from its first record: a JSON Lines record with a `payload` and a Codex
 * line type is a Codex rollout; one with a Claude Code line type (or `sessionId`/`uuid`) is a
 * Claude Code log; a JSON document that is an object with a `trajectory` array and no `messages`
 * array is a SWE-agent trajectory; any other JSON document (an object with `messages`, as
 * mini-swe-agent writes, or an array) is an OpenAI-style message list. A document whose first line
 * is not a whole JSON value (pretty-printed: `{` alone) is told apart by the array keys of its root
 * object, read from the text. Throws {@link TraceImportError} when it is none of them.
 */
export function detectTraceFormat(text: string, file: string): TraceFormat {
  const start = text.search(/\S/);
  if (start === -1) throw new TraceImportError(file, 1, 'the file is empty');
  const nl = text.indexOf('\n', start);
  const first = text.slice(start, nl === -1 ? text.length : nl);
  let record: unknown;
  try {
    record = JSON.parse(first);
  } catch {
    record = undefined;
  }
  if (isRecord(record)) {
    const type = String(record['type']);
    if ('payload' in record && CODEX_TYPES.has(type)) return 'codex-rollout-jsonl';
    if (CLAUDE_TYPES.has(type) || 'sessionId' in record || 'uuid' in record) return 'claude-code-jsonl';
    if (Array.isArray(record['messages'])) return 'openai-messages-json';
    if (Array.isArray(record['trajectory'])) return 'swe-agent-traj';
  }
  if (record === undefined && text[start] === '{') {
    const keys = rootArrayKeys(text);
    if (keys.has('trajectory') && !keys.has('messages')) return 'swe-agent-traj';
  }
  if (Array.isArray(record) || (record === undefined && (text[start] === '{' || text[start] === '['))) return 'openai-messages-json';
  const line = text.slice(0, start).split('\n').length;
  throw new TraceImportError(file, line, 'unrecognised trace format: not a Codex rollout, a Claude Code log, a SWE-agent trajectory or an OpenAI-style message document');
}

/** Events of trace `text` (named `file` in errors), in `format` or the detected one. */
export function importTraceText(text: string, file: string, format: TraceFormat = detectTraceFormat(text, file)): TraceImport {
  switch (format) {
    case 'openai-messages-json':
      return importOpenAIMessages(text, file);
    case 'claude-code-jsonl':
      return claudeSession(importClaudeCode(text, file));
    case 'codex-rollout-jsonl':
      return importCodexRollout(text, file);
    case 'swe-agent-traj':
      return importSweAgent(text, file);
  }
}
