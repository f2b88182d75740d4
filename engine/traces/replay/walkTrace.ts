/**
 * Walks a trace's main thread in recorded order for a replay (pure): announces each step just
 * before its first event (the moment its request was sent), and hands over everything observed,
 * with every tool result paired with its call. Pairing rules, as in `toConversationGroups`: a
 * result recorded before its call waits for the call (Claude Code writes some lines out of order);
 * a second result for a call, or a call id used before, is left out; a result whose call never
 * comes is left out (it would be an orphan). Each is counted in the repairs.
 */
import type { ToolCallEvent, TraceEvent } from '../TraceEvent';
import type { ReplayRepairs } from './ReplayTypes';
import type { RecordedCall } from './traceItems';
import { mainThread, stepTimes, traceSteps, type TraceStep } from './traceSteps';

export interface TraceVisitor {
  /** Step `index` (0-based) is about to be sent at `at`; its calls are the first uses of their ids. */
  step(step: TraceStep, index: number, at: number): void;
  userInput?(text: string, eventIndex: number, at: number): void;
  instructions?(text: string, role: 'system' | 'developer', eventIndex: number): void;
  assistantText?(text: string, step: number, k: number, at: number): void;
  /** A tool call and its recorded result, once both have been seen. */
  toolResult?(call: RecordedCall, result: { content: string; isError: boolean }, at: number): void;
  compaction?(summary: string, eventIndex: number, at: number): void;
}

/** Walks `events` (rules in the module comment) and returns what had to be left out. */
export function walkTrace(events: readonly TraceEvent[], visitor: TraceVisitor): ReplayRepairs {
  const { events: main, left } = mainThread(events);
  const repairs: ReplayRepairs = { unmatchedResults: 0, duplicates: 0, reorderedResults: 0, subagentEvents: left };
  const firstCall = new Map<string, ToolCallEvent>();
  for (const e of main) if (e.type === 'tool_call' && !firstCall.has(e.callId)) firstCall.set(e.callId, e);
  const steps = traceSteps(main).map((s) => ({ ...s, calls: s.calls.filter((c) => firstCall.get(c.callId) === c) }));
  const times = stepTimes(steps, main);
  const startAt = new Map(steps.map((s, i) => [s.first, i]));

  const calls = new Map<string, RecordedCall>();
  const answered = new Set<string>();
  const early = new Map<string, { content: string; isError: boolean }>();
  const textsSeen = new Map<number, number>();
  let now = times[0] ?? 0;
  let stepKey = 0;

  main.forEach((e, i) => {
    const starting = startAt.get(i);
    if (starting !== undefined) {
      const s = steps[starting] as TraceStep;
      now = times[starting] as number;
      stepKey = s.step;
      visitor.step(s, starting, now);
    }
    const at = e.at !== undefined && Number.isFinite(Date.parse(e.at)) ? Math.max(now, Date.parse(e.at)) : now;
    switch (e.type) {
      case 'user_input':
        if (e.text.trim() !== '') visitor.userInput?.(e.text, i, at);
        break;
      case 'instructions':
        visitor.instructions?.(e.text, e.role, i);
        break;
      case 'assistant_text': {
        const step = e.step ?? stepKey;
        const k = textsSeen.get(step) ?? 0;
        textsSeen.set(step, k + 1);
        if (e.text.trim() !== '') visitor.assistantText?.(e.text, step, k, at);
        break;
      }
      case 'tool_call': {
        if (firstCall.get(e.callId) !== e) {
          repairs.duplicates++;
          break;
        }
        const call: RecordedCall = { callId: e.callId, name: e.name, arguments: e.arguments };
        calls.set(e.callId, call);
        const waiting = early.get(e.callId);
        if (waiting) {
          early.delete(e.callId);
          answered.add(e.callId);
          repairs.reorderedResults++;
          visitor.toolResult?.(call, waiting, at);
        }
        break;
      }
      case 'tool_result': {
        const call = calls.get(e.callId);
        if (answered.has(e.callId) || early.has(e.callId)) repairs.duplicates++;
        else if (call) {
          answered.add(e.callId);
          visitor.toolResult?.(call, { content: e.content, isError: e.isError }, at);
        } else early.set(e.callId, { content: e.content, isError: e.isError });
        break;
      }
      case 'compaction':
        if (e.summary !== undefined && e.summary.trim() !== '') visitor.compaction?.(e.summary, i, at);
        break;
      default:
        break;
    }
  });
  repairs.unmatchedResults += early.size;
  return repairs;
}
