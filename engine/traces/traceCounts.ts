import { mainThread, traceSteps } from './replay/traceSteps';
import type { TraceEvent } from './TraceEvent';

/** What a trace holds, counted as a replay sees it. */
export interface TraceCounts {
  /** The main agent's recorded LLM calls: the steps a replay prices, one per-step entry each. */
  steps: number;
  /** The main agent's tool calls. */
  toolCalls: number;
  /** Every event of the file, subagents included. */
  eventCount: number;
}

/** Counts of `events` (pure); steps are counted the way `replayTrace` walks them. */
export function traceCounts(events: readonly TraceEvent[]): TraceCounts {
  const main = mainThread(events).events;
  return { steps: traceSteps(main).length, toolCalls: main.filter((e) => e.type === 'tool_call').length, eventCount: events.length };
}
