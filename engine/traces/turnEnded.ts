/**
 * Whether the last turn of a session file has ended (`[live-done]`), read from its parsed records:
 * Codex says so itself (`event_msg` `task_complete` or `turn_aborted` after the turn's last item);
 * in a Claude Code file the main thread's last message is the assistant's, with no tool call in it
 * and none announced (`stop_reason` other than `tool_use`), or an interruption, or the client's
 * `turn_duration` note after it. A subagent still running keeps the turn open. Pure.
 */
import type { JsonLine } from './jsonText';
import type { TraceFormat } from './TraceEvent';

/** A session whose last turn ended and whose file got no line for this long is done (`[live-done]`). */
export const SESSION_SETTLED_MS = 10_000;

/**
 * The done rule (`[live-done]`), one fact for every view of a session: its last turn ended and its
 * file has been quiet at least {@link SESSION_SETTLED_MS}. An attached session measures the quiet
 * from its last line; the session list from the file's last write.
 */
export function sessionDone(ended: boolean, quietMs: number): boolean {
  return ended && quietMs >= SESSION_SETTLED_MS;
}

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);

/** True when the file's last turn ended; false while one is under way or for a format that does not tell. */
export function turnEnded(records: readonly JsonLine[], format: TraceFormat): boolean {
  if (format === 'codex-rollout-jsonl') return codexEnded(records);
  if (format === 'claude-code-jsonl') return claudeEnded(records);
  return false;
}

function codexEnded(records: readonly JsonLine[]): boolean {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!.value as Rec;
    const payload = obj(r.payload);
    if (r.type === 'event_msg') {
      const kind = payload?.type;
      if (kind === 'task_complete' || kind === 'turn_aborted') return true;
      if (kind === 'task_started' || kind === 'user_message') return false;
      continue;
    }
    // A model item or a tool result after the last end: a turn is under way.
    if (r.type === 'response_item') return false;
  }
  return false;
}

function claudeEnded(records: readonly JsonLine[]): boolean {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!.value as Rec;
    if (r.isSidechain === true) return false;
    if (r.type === 'system' && r.subtype === 'turn_duration') return true;
    if (r.type !== 'user' && r.type !== 'assistant') continue;
    const message = obj(r.message);
    const content = message?.content;
    const blocks = Array.isArray(content) ? content.map(obj) : [];
    if (r.type === 'user') {
      const text = typeof content === 'string' ? content : blocks.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
      return text.trimStart().startsWith('[Request interrupted by user');
    }
    if (blocks.some((b) => b?.type === 'tool_use')) return false;
    return message?.stop_reason !== 'tool_use';
  }
  return false;
}
