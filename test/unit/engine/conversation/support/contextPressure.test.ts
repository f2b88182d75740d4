import { describe, expect, it } from 'vitest';
import {
  atPressure,
  nativeCompactionDue,
  PRESSURE_REMINDER_MAX_CHARS,
  pressureReminderText,
  taskPressure,
  type NativeCompactionInput,
  type TaskPressureInput,
} from '../../../../../engine/conversation/contextPressure';
import { FALLBACK_MIN_MESSAGES } from '../../../../../engine/conversation/fallbackSummary';

const native = (over: Partial<NativeCompactionInput> = {}): NativeCompactionInput => ({ lastInputTokens: 850, contextWindow: 1000, nativeCompaction: true, turnCompleted: true, ...over });
const task = (over: Partial<TaskPressureInput> = {}): TaskPressureInput => ({ usedTokens: 850, maxTotalTokens: 1000, reminderSent: false, fallbackRan: false, historyLength: 20, ...over });

describe('the two 85% triggers', () => {
  it.each<[string, number, number, boolean]>([
    ['84.9%', 849, 1000, false],
    ['85%', 850, 1000, true],
    ['85.1%', 851, 1000, true],
    ['84.9% of a large window', 169_800, 200_000, false],
    ['85% of a large window', 170_000, 200_000, true],
    ['85.1% of a large window', 170_200, 200_000, true],
    ['exactly 17/20', 17, 20, true],
    ['one token short of 85%', 169_999, 200_000, false],
    ['over the window', 250_000, 200_000, true],
  ])('[pressure-denominators] %s of the denominator', (_name, used, limit, due) => {
    expect(atPressure(used, limit)).toBe(due);
    expect(nativeCompactionDue(native({ lastInputTokens: used, contextWindow: limit }))).toBe(due);
    expect(taskPressure(task({ usedTokens: used, maxTotalTokens: limit })).atPressure).toBe(due);
  });

  it.each<[string, Partial<NativeCompactionInput>]>([
    ['no native compaction declared', { nativeCompaction: false }],
    ['a turn still running', { turnCompleted: false }],
    ['no provider telemetry', { lastInputTokens: undefined }],
    ['an unknown context window', { contextWindow: undefined }],
    ['a zero context window', { contextWindow: 0 }],
    ['a negative context window', { contextWindow: -1 }],
    ['a non-finite window', { contextWindow: Number.POSITIVE_INFINITY }],
    ['a NaN token count', { lastInputTokens: Number.NaN }],
  ])('[pressure-denominators] native compaction is not due with %s, even at 100%', (_name, over) => {
    expect(nativeCompactionDue(native({ lastInputTokens: 1000, ...over }))).toBe(false);
  });

  it('[pressure-denominators] the denominators are distinct: the task cap can press while the provider window does not, and back', () => {
    const used = 90_000;
    expect(taskPressure(task({ usedTokens: used, maxTotalTokens: 100_000 })).atPressure).toBe(true);
    expect(nativeCompactionDue(native({ lastInputTokens: used, contextWindow: 200_000 }))).toBe(false);
    expect(taskPressure(task({ usedTokens: used, maxTotalTokens: 200_000 })).atPressure).toBe(false);
    expect(nativeCompactionDue(native({ lastInputTokens: used, contextWindow: 100_000 }))).toBe(true);
  });

  it.each<[string, Partial<TaskPressureInput>]>([
    ['a zero token cap', { maxTotalTokens: 0 }],
    ['a NaN usage', { usedTokens: Number.NaN }],
    ['a negative usage', { usedTokens: -1 }],
  ])('[pressure-denominators] %s is never pressure', (_name, over) => {
    expect(taskPressure(task(over))).toEqual({ atPressure: false, sendReminder: false, runFallback: false });
  });
});

describe('taskPressure', () => {
  it.each<[string, Partial<TaskPressureInput>, { sendReminder: boolean; runFallback: boolean }]>([
    ['below 85%', { usedTokens: 849 }, { sendReminder: false, runFallback: false }],
    ['first time at 85%', {}, { sendReminder: true, runFallback: true }],
    ['reminder already sent', { reminderSent: true }, { sendReminder: false, runFallback: true }],
    ['fallback already ran', { fallbackRan: true }, { sendReminder: true, runFallback: false }],
    ['both done', { reminderSent: true, fallbackRan: true }, { sendReminder: false, runFallback: false }],
    ['history one message too short', { historyLength: FALLBACK_MIN_MESSAGES - 1 }, { sendReminder: true, runFallback: false }],
    ['history just long enough', { historyLength: FALLBACK_MIN_MESSAGES }, { sendReminder: true, runFallback: true }],
  ])('[pressure-reminder-once] %s', (_name, over, expected) => {
    expect(taskPressure(task(over))).toMatchObject(expected);
  });

  it('[pressure-reminder-once] over a long pressured task the reminder is sent once and the fallback runs once', () => {
    let reminderSent = false;
    let fallbackRan = false;
    const reminders: number[] = [];
    const fallbacks: number[] = [];
    for (let step = 0; step < 40; step++) {
      const p = taskPressure({ usedTokens: 700 + step * 10, maxTotalTokens: 1000, reminderSent, fallbackRan, historyLength: 2 + step });
      if (p.sendReminder) {
        reminders.push(step);
        reminderSent = true;
      }
      if (p.runFallback) {
        fallbacks.push(step);
        fallbackRan = true;
      }
    }
    expect(reminders).toEqual([15]);
    expect(fallbacks).toEqual([15]);
  });

  it('[pressure-reminder-once] with short history the reminder goes first and the fallback waits until history is long enough', () => {
    const steps = [4, 6, 7, 8, 9].map((historyLength, k) => ({ historyLength, k }));
    let reminderSent = false;
    let fallbackRan = false;
    const log: string[] = [];
    for (const { historyLength, k } of steps) {
      const p = taskPressure({ usedTokens: 900, maxTotalTokens: 1000, reminderSent, fallbackRan, historyLength });
      if (p.sendReminder) log.push(`reminder@${k}`);
      if (p.runFallback) log.push(`fallback@${k}`);
      reminderSent ||= p.sendReminder;
      fallbackRan ||= p.runFallback;
    }
    expect(log).toEqual(['reminder@0', 'fallback@3']);
  });
});

describe('pressureReminderText', () => {
  it('[pressure-reminder-once] names the usage against the task cap, rounded down', () => {
    expect(pressureReminderText({ usedTokens: 27_300, maxTotalTokens: 32_000 })).toMatch(/^\[context pressure\] 27300 of 32000 task tokens used \(85%\)\. /);
    expect(pressureReminderText({ usedTokens: 8499, maxTotalTokens: 10_000 })).toContain('(84%)');
  });

  it.each<[number, number]>([
    [0, 1],
    [850, 1000],
    [Number.MAX_SAFE_INTEGER, 1],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [Number.NaN, 1000],
    [10, 0],
  ])('[pressure-reminder-once] is bounded and deterministic for %d of %d', (usedTokens, maxTotalTokens) => {
    const text = pressureReminderText({ usedTokens, maxTotalTokens });
    expect(text.length).toBeLessThanOrEqual(PRESSURE_REMINDER_MAX_CHARS);
    expect(pressureReminderText({ usedTokens, maxTotalTokens })).toBe(text);
    expect(text).not.toContain('NaN');
  });
});
