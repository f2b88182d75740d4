import type { LiveSessionDto, SessionDto } from '../../../engine/contract';
import type { EngineStrategy } from '../../app/sessionsController';

/**
 * Every engine strategy once, in the order the select lists them. A record rather than a list so
 * the compiler refuses it when the contract's `EngineStrategySchema` gains or loses one (the
 * renderer may import only types from the contract, not the schema's values).
 */
const STRATEGY_SET: Record<EngineStrategy, true> = { variable: true, full_history: true, summary: true, aggressive_refresh: true, role_optimized: true };
export const ENGINE_STRATEGIES = Object.keys(STRATEGY_SET) as EngineStrategy[];

export const DEFAULT_STRATEGY: EngineStrategy = 'variable';
/** The host's default budget for an attached session (`DEFAULT_ATTACH_BUDGET`). */
export const DEFAULT_ATTACH_BUDGET = 100_000;
/** The bounds `attachSession` accepts. */
export const ATTACH_BUDGET = { min: 1000, max: 2_000_000 } as const;

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
