/**
 * The recorded steps of a trace: one per LLM call of any of its agents (the main agent and its
 * subagents), with the agent, the action it took (its visible text and tool calls), its recorded
 * usage and its time. Pure.
 */
import type { ToolCallEvent, TraceEvent, UsageEvent } from './TraceEvent';

/** One LLM call of the main agent, as recorded. */
export interface TraceStep {
  /** The importer's step number (a synthetic negative one for model output recorded without a step). */
  step: number;
  /** The subagent that made the call; absent for the main agent. */
  agentId?: string;
  /** Index (in the main-thread events) of the step's first event: the step's request is built just before it. */
  first: number;
  /** The step's recorded time (ms since the epoch), from its first event that has one. */
  at?: number;
  texts: string[];
  calls: ToolCallEvent[];
  /** The source file of the step's events and their 1-based lines, in order. */
  file?: string;
  lines: number[];
  /** The step's last usage event (the provider's figures for the call), if it was recorded. */
  usage?: UsageEvent;
}

/** Default origin of a trace without timestamps. */
const DEFAULT_TRACE_T0 = Date.UTC(2026, 0, 1);
/** Time between two steps that record no time. */
const FALLBACK_STEP_MS = 30_000;

const isSubagent = (e: TraceEvent) => e.agentId !== undefined || e.type === 'subagent_spawn' || e.type === 'subagent_return';
const isModelOutput = (e: TraceEvent) => e.type === 'assistant_text' || e.type === 'tool_call' || e.type === 'usage';

/** The main thread: every event without `agentId`, minus the subagent markers; `left` counts what was left out. */
export function mainThread(events: readonly TraceEvent[]): { events: TraceEvent[]; left: number } {
  const main = events.filter((e) => !isSubagent(e));
  return { events: main, left: events.length - main.length };
}

/**
 * The steps of `events` (every agent's) in order of first appearance. Model output without a
 * `step` forms a step of its own with every such event of the same agent that follows it directly.
 */
export function traceSteps(events: readonly TraceEvent[]): TraceStep[] {
  const byStep = new Map<string, TraceStep>();
  const out: TraceStep[] = [];
  let synthetic = 0;
  let previousUnnumbered: string | undefined | null = null;
  events.forEach((e, i) => {
    if (!isModelOutput(e)) {
      previousUnnumbered = null;
      return;
    }
    let step = e.step;
    if (step === undefined) {
      if (previousUnnumbered !== (e.agentId ?? '')) synthetic--;
      step = synthetic;
      previousUnnumbered = e.agentId ?? '';
    } else previousUnnumbered = null;
    const key = `${e.agentId ?? ''}\0${step}`;
    let s = byStep.get(key);
    if (!s) {
      s = { step, first: i, texts: [], calls: [], file: e.source.file, lines: [], ...(e.agentId !== undefined ? { agentId: e.agentId } : {}) };
      byStep.set(key, s);
      out.push(s);
    }
    if (s.at === undefined && e.at !== undefined) {
      const t = Date.parse(e.at);
      if (Number.isFinite(t)) s.at = t;
    }
    s.lines.push(e.source.line);
    if (e.type === 'assistant_text') s.texts.push(e.text);
    else if (e.type === 'tool_call') s.calls.push(e);
    else if (e.type === 'usage') s.usage = e;
  });
  return out;
}

/**
 * The time each step is priced at: its recorded time, never earlier than the previous step's (the
 * cache model takes calls in time order); a step without one comes 30 s after the previous step.
 * The first step without a time starts at the trace's first recorded time, or `DEFAULT_TRACE_T0`.
 */
export function stepTimes(steps: readonly TraceStep[], events: readonly TraceEvent[]): number[] {
  let origin = DEFAULT_TRACE_T0;
  for (const e of events) {
    const t = e.at === undefined ? NaN : Date.parse(e.at);
    if (Number.isFinite(t)) {
      origin = t;
      break;
    }
  }
  const out: number[] = [];
  let previous: number | undefined;
  for (const s of steps) {
    const at: number = previous === undefined ? (s.at ?? origin) : Math.max(previous, s.at ?? previous + FALLBACK_STEP_MS);
    out.push(at);
    previous = at;
  }
  return out;
}

/** Prompt tokens of a recorded usage event (its parts are disjoint). */
export const recordedPrompt = (u: UsageEvent): number => u.input + u.cacheRead + u.cacheWrite;
