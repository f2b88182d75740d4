import type { AgentStatus, LiveSessionDto, SessionDto } from '../../../engine/contract';
import { ATTACH_BUDGET } from '../../../engine/shared/limits';
import type { EngineStrategy } from '../../controller/sessionsController';

export const DEFAULT_STRATEGY: EngineStrategy = 'variable';

/** The typed budget as a number, or why it cannot be sent (the host would refuse it with `invalid_args`). */
export function parseBudget(text: string): { ok: true; budget: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const n = Number(trimmed);
  if (trimmed === '' || !Number.isInteger(n) || n < ATTACH_BUDGET.min || n > ATTACH_BUDGET.max) {
    return { ok: false, message: `Budget must be a whole number of tokens from ${ATTACH_BUDGET.min.toLocaleString('en-US')} to ${ATTACH_BUDGET.max.toLocaleString('en-US')}.` };
  }
  return { ok: true, budget: n };
}

export const TOOL_LABEL: Record<SessionDto['tool'], string> = { 'claude-code': 'Claude Code', codex: 'Codex' };

/** What each file state means for the operator (the host's `message` adds the details). */
export const STATUS_NOTE: Record<LiveSessionDto['status'], string> = {
  following: 'following the file as it grows',
  waiting: 'waiting for the file to be written',
  truncated: 'the file got shorter: read again from the start',
  rotated: 'another file replaced it: read again from the start',
  deleted: 'the file was deleted: waiting for it to come back',
  error: 'cannot read it as a session',
};

const startFormat = new Intl.DateTimeFormat([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** A session's start (or, when its first lines do not say, its last write) in local time. */
export function startLabel(s: Pick<SessionDto, 'startedAt' | 'modifiedAt'>): string {
  const at = new Date(s.startedAt ?? s.modifiedAt);
  if (Number.isNaN(at.getTime())) return 'unknown time';
  return s.startedAt ? `started ${startFormat.format(at)}` : `written ${startFormat.format(at)}`;
}

/**
 * What the picker says of a listed file, by the done rule the attached list follows (`[live-done]`):
 * for a session attached, its main agent's status (the host's view, newer than the list); else what
 * `listSessions` said. `done` and `growing` never show together.
 */
export function pickerState(s: Pick<SessionDto, 'growing' | 'done'>, attachedStatus: AgentStatus | undefined): 'done' | 'growing' | null {
  if (attachedStatus !== undefined) return attachedStatus === 'done' ? 'done' : attachedStatus === 'running' ? 'growing' : null;
  return s.done ? 'done' : s.growing ? 'growing' : null;
}
