import { FALLBACK_MIN_MESSAGES } from './fallbackSummary';

/**
 * Context pressure: the two 85% triggers of compaction-and-reinjection (`[pressure-denominators]`).
 * They share a threshold but not a denominator, and mixing them up compacts at the wrong time:
 * - `context_window`: the provider context window a runtime reports through telemetry; only a
 *   runtime that declares native compaction compares against it ({@link nativeCompactionDue});
 * - `max_total_tokens`: the task's own token cap, watched by the native agent runner, which has
 *   no provider window contract ({@link taskPressure}).
 */

/** The share of a denominator at which pressure starts: 85%, reached exactly at 85/100. */
const PRESSURE_THRESHOLD = { numerator: 17, denominator: 20 } as const;

/** Upper bound of {@link pressureReminderText}'s length, whatever the numbers. */
export const PRESSURE_REMINDER_MAX_CHARS = 400;

const usable = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n);

/**
 * `used / limit >= 85%`, computed as `used * 20 >= limit * 17` so an exact 85% is never lost to
 * floating-point rounding (0.85 has no exact binary form). False for an unknown or non-positive limit:
 * without a known denominator there is no ratio to act on.
 */
export function atPressure(used: number | undefined, limit: number | undefined): boolean {
  if (!usable(used) || !usable(limit) || limit <= 0 || used < 0) return false;
  return used * PRESSURE_THRESHOLD.denominator >= limit * PRESSURE_THRESHOLD.numerator;
}

/** The conversation runtime's view after a turn. */
export interface NativeCompactionInput {
  /** Input tokens of the last request, from provider telemetry; undefined without telemetry. */
  lastInputTokens: number | undefined;
  /** The context window the runtime reports; undefined when unknown. Denominator `context_window`. */
  contextWindow: number | undefined;
  /** The runtime's capability declares native compaction. */
  nativeCompaction: boolean;
  /** The turn has completed; a turn in flight is never compacted under the model. */
  turnCompleted: boolean;
}

/**
 * Whether a conversation runtime should ask for native compaction now. Invariant: true only with
 * all four of declared native compaction, provider telemetry, a known context window and a
 * completed turn, at >= 85% of that window. Any missing piece means "do not compact": guessing a
 * window or compacting mid-turn would lose work the model is still producing.
 */
export function nativeCompactionDue(i: NativeCompactionInput): boolean {
  return i.nativeCompaction && i.turnCompleted && atPressure(i.lastInputTokens, i.contextWindow);
}

/** The native runner's view at a step, with its one-shot record. */
export interface TaskPressureInput {
  /** Tokens the task has used so far. */
  usedTokens: number;
  /** The task's `max_total_tokens`. Denominator `max_total_tokens`. */
  maxTotalTokens: number;
  /** A context-pressure reminder was already sent in this task. */
  reminderSent: boolean;
  /**
   * The fallback already ran in this task (it compacted, or a pre-compact hook denied it). A plan
   * skipped because too little history could be cut does not count, so it may run later.
   */
  fallbackRan: boolean;
  /** Messages in the runner's history, for the fallback's minimum. */
  historyLength: number;
}

/** What to do at this step; both actions are one-shot per task. */
export interface TaskPressure {
  atPressure: boolean;
  sendReminder: boolean;
  runFallback: boolean;
}

/**
 * What the native agent runner does at this step (`[pressure-reminder-once]`): at >= 85% of the
 * task's `max_total_tokens`, send the reminder unless it was sent, and run the deterministic
 * fallback unless it ran, once the history has at least {@link FALLBACK_MIN_MESSAGES} messages
 * (2 protected + 2 to cut + 4 kept). Both are one-shot: the flags come from the caller's record,
 * so a reminder is never sent twice and the fallback never runs twice however long pressure lasts.
 */
export function taskPressure(i: TaskPressureInput): TaskPressure {
  const pressed = atPressure(i.usedTokens, i.maxTotalTokens);
  return {
    atPressure: pressed,
    sendReminder: pressed && !i.reminderSent,
    runFallback: pressed && !i.fallbackRan && i.historyLength >= FALLBACK_MIN_MESSAGES,
  };
}

/** A non-negative integer in plain digits (no locale: the text must be the same on every machine). */
const digits = (n: number): string => (Number.isFinite(n) ? String(Math.max(0, Math.min(Math.trunc(n), Number.MAX_SAFE_INTEGER))) : '?');

/**
 * The one context-pressure reminder for the native runner. Deterministic and bounded (at most
 * {@link PRESSURE_REMINDER_MAX_CHARS}): it is injected into a context that is already nearly full.
 * The percentage is rounded down, so the text never claims 85% before the threshold is reached.
 */
export function pressureReminderText(i: { usedTokens: number; maxTotalTokens: number }): string {
  const percent = i.maxTotalTokens > 0 && Number.isFinite(i.usedTokens) ? digits((i.usedTokens * 100) / i.maxTotalTokens) : '?';
  return (
    `[context pressure] ${digits(i.usedTokens)} of ${digits(i.maxTotalTokens)} task tokens used (${percent}%). ` +
    'Finish the smallest correct, verified change: prefer tools over long narration, do not re-read files ' +
    'already in context, and keep answers short. Older history may be compacted into a lossy summary.'
  );
}
