/**
 * Walks a trace in recorded order for a replay (pure): every agent of it (the main agent and each
 * subagent, told apart by `agent`, undefined for the main one), announcing each step just before
 * its first event (the moment its request was sent) and handing over everything observed, with
 * every tool result paired with its call. Pairing rules: a result
 * recorded before its call waits for the call (Claude Code writes some lines out of order); a
 * second result for a call, or a call id used before, is left out; a result whose call never comes
 * is left out (it would be an orphan). Each is counted in the repairs. Step times are one clock
 * over all agents (`stepTimes`), so calls reach a shared cache model in time order. Event indexes
 * given to the callbacks are positions in the `events` passed in; a step's `first` is a position
 * among the walked events.
 */
import type { CompactionEvent, ContextEvent, PrefixEvent, ToolCallEvent, TraceEvent } from '../TraceEvent';
import type { ReplayRepairs } from './ReplayTypes';
import type { RecordedCall } from './traceItems';
import { stepTimes, traceSteps, type TraceStep } from '../traceSteps';

/** Which agent an observation belongs to: a subagent's id, or undefined for the main agent. */
export type AgentKey = string | undefined;

export interface TraceVisitor {
  /** Step `index` (0-based over all agents) is about to be sent at `at`; its calls are the first uses of their ids. */
  step(step: TraceStep, index: number, at: number, agent: AgentKey): void;
  userInput?(text: string, eventIndex: number, at: number, agent: AgentKey): void;
  /** Text the client injected into the conversation (`ContextEvent`). */
  context?(event: ContextEvent, eventIndex: number, at: number, agent: AgentKey): void;
  /** The recorded fixed prefix changed (`PrefixEvent`). */
  prefix?(event: PrefixEvent, agent: AgentKey): void;
  instructions?(text: string, role: 'system' | 'developer', eventIndex: number, agent: AgentKey): void;
  assistantText?(text: string, step: number, k: number, at: number, agent: AgentKey): void;
  /** A tool call and its recorded result, once both have been seen (`eventIndex`: the result's). */
  toolResult?(call: RecordedCall, result: { content: string; isError: boolean }, at: number, agent: AgentKey, eventIndex: number): void;
  compaction?(event: CompactionEvent, eventIndex: number, at: number, agent: AgentKey): void;
}

export interface WalkOptions {
  /** `'main'`: the main agent only (subagent events counted as left out). Default: every agent. */
  agents?: 'all' | 'main';
}

/** Walks `events` (rules in the module comment) and returns what had to be left out. */
export function walkTrace(events: readonly TraceEvent[], visitor: TraceVisitor, options: WalkOptions = {}): ReplayRepairs {
  const mainOnly = options.agents === 'main';
  // The events walked, and the index in `events` of each (callbacks name events by that index).
  const walked: TraceEvent[] = [];
  const origin: number[] = [];
  events.forEach((e, i) => {
    const marker = e.type === 'subagent_spawn' || e.type === 'subagent_return';
    if (marker || (mainOnly && e.agentId !== undefined)) return;
    walked.push(e);
    origin.push(i);
  });
  const repairs: ReplayRepairs = { unmatchedResults: 0, duplicates: 0, reorderedResults: 0, subagentEvents: mainOnly ? events.length - walked.length : 0 };
  const firstCall = new Map<string, ToolCallEvent>();
  for (const e of walked) if (e.type === 'tool_call' && !firstCall.has(e.callId)) firstCall.set(e.callId, e);
  const steps = traceSteps(walked).map((s) => ({ ...s, calls: s.calls.filter((c) => firstCall.get(c.callId) === c) }));
  const times = stepTimes(steps, walked);
  const startAt = new Map(steps.map((s, i) => [s.first, i]));

  const calls = new Map<string, { call: RecordedCall; agent: AgentKey }>();
  const answered = new Set<string>();
  const early = new Map<string, { content: string; isError: boolean; index: number }>();
  const textsSeen = new Map<string, number>();
  const stepKey = new Map<AgentKey, number>();
  let now = times[0] ?? 0;

  walked.forEach((e, w) => {
    const i = origin[w] as number;
    const agent = e.agentId;
    const starting = startAt.get(w);
    if (starting !== undefined) {
      const s = steps[starting] as TraceStep;
      now = times[starting] as number;
      stepKey.set(agent, s.step);
      visitor.step(s, starting, now, agent);
    }
    const at = e.at !== undefined && Number.isFinite(Date.parse(e.at)) ? Math.max(now, Date.parse(e.at)) : now;
    switch (e.type) {
      case 'user_input':
        if (e.text.trim() !== '') visitor.userInput?.(e.text, i, at, agent);
        break;
      case 'context':
        if (e.text.trim() !== '') visitor.context?.(e, i, at, agent);
        break;
      case 'prefix':
        visitor.prefix?.(e, agent);
        break;
      case 'instructions':
        visitor.instructions?.(e.text, e.role, i, agent);
        break;
      case 'assistant_text': {
        const step = e.step ?? stepKey.get(agent) ?? 0;
        const key = `${agent ?? ''}\0${step}`;
        const k = textsSeen.get(key) ?? 0;
        textsSeen.set(key, k + 1);
        if (e.text.trim() !== '') visitor.assistantText?.(e.text, step, k, at, agent);
        break;
      }
      case 'tool_call': {
        if (firstCall.get(e.callId) !== e) {
          repairs.duplicates++;
          break;
        }
        const call: RecordedCall = { callId: e.callId, name: e.name, arguments: e.arguments };
        calls.set(e.callId, { call, agent });
        const waiting = early.get(e.callId);
        if (waiting) {
          early.delete(e.callId);
          answered.add(e.callId);
          repairs.reorderedResults++;
          visitor.toolResult?.(call, { content: waiting.content, isError: waiting.isError }, at, agent, waiting.index);
        }
        break;
      }
      case 'tool_result': {
        const known = calls.get(e.callId);
        if (answered.has(e.callId) || early.has(e.callId)) repairs.duplicates++;
        else if (known) {
          answered.add(e.callId);
          visitor.toolResult?.(known.call, { content: e.content, isError: e.isError }, at, known.agent, i);
        } else early.set(e.callId, { content: e.content, isError: e.isError, index: i });
        break;
      }
      case 'compaction':
        visitor.compaction?.(e, i, at, agent);
        break;
      default:
        break;
    }
  });
  repairs.unmatchedResults += early.size;
  return repairs;
}
