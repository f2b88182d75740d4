import { traceSteps } from './traceSteps';
import type { TraceEvent } from './TraceEvent';

/** What a trace holds, counted as a replay sees it. */
export interface TraceCounts {
  /** The recorded LLM calls of every agent (the main one and its subagents): the steps a replay prices, one per-step entry each. */
  steps: number;
  /** The tool calls of every agent. */
  toolCalls: number;
  /** Every event of the file, subagents included. */
  eventCount: number;
}

/** Counts of `events` (pure); steps are counted the way `replayTrace` walks them. */
export function traceCounts(events: readonly TraceEvent[]): TraceCounts {
  return { steps: traceSteps(events).length, toolCalls: events.filter((e) => e.type === 'tool_call').length, eventCount: events.length };
}
