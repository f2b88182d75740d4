/**
 * The threads of a watched session (`[live-threads]`): its main agent and each subagent (a Claude
 * Code sidechain, a merged subagent run), so the agent tree shows the subagents as children of the
 * session and each gets its own recorded figures and its own counterfactual replay. A subagent's
 * events are returned as a main thread of their own (without `agentId`), which is what the
 * replay and `recordedTruth` read. Pure.
 */
import { requestText } from '../../../traces/requestText';
import { mainThread, traceSteps } from '../../../traces/traceSteps';
import type { TraceEvent } from '../../../traces/TraceEvent';

/** One subagent of a session. */
export interface SubagentThread {
  /** The subagent's id in the trace (`agentId` of its events). */
  key: string;
  /** Its first input (the task it was given), '' when none was recorded. */
  task: string;
  /** Its run ended (`subagent_return` seen). */
  done: boolean;
  /** Position in the session's events of its latest event (newer threads have larger ones). */
  lastIndex: number;
  /** Its events as a main thread: in order, without `agentId`, the spawn and return markers left out. */
  events: TraceEvent[];
}

/** The first real user request of the main thread, the client's own turns skipped (`requestText`; '' when there is none). */
export function sessionTask(events: readonly TraceEvent[]): string {
  for (const e of events) {
    if (e.type !== 'user_input' || e.agentId !== undefined) continue;
    const text = requestText(e.text);
    if (text !== '') return text;
  }
  return '';
}

/** The session's subagents in order of first appearance. */
export function subagentThreads(events: readonly TraceEvent[]): SubagentThread[] {
  const threads = new Map<string, SubagentThread>();
  const thread = (key: string, index: number) => {
    let t = threads.get(key);
    if (!t) {
      t = { key, task: '', done: false, lastIndex: index, events: [] };
      threads.set(key, t);
    }
    t.lastIndex = index;
    return t;
  };
  events.forEach((e, i) => {
    if (e.agentId === undefined) return;
    const t = thread(e.agentId, i);
    if (e.type === 'subagent_spawn') return;
    if (e.type === 'subagent_return') {
      // An importer ends a file that stops inside a subagent with its return; in a file still
      // being written that subagent may be running, so only a return something follows counts.
      t.done = i < events.length - 1;
      return;
    }
    const { agentId: _agent, ...own } = e;
    t.events.push(own as TraceEvent);
    if (e.type === 'user_input' && t.task === '') t.task = requestText(e.text);
  });
  return [...threads.values()];
}

/**
 * Where the recording agent compacted its context: for each compaction of the main thread, the
 * number of the first step after it (the first call sent with the compacted context), in order.
 * A compaction after the last step is not listed until a step follows it.
 */
export function compactionSteps(events: readonly TraceEvent[]): number[] {
  const main = mainThread(events).events;
  const steps = traceSteps(main);
  const out: number[] = [];
  main.forEach((e, i) => {
    if (e.type !== 'compaction') return;
    const next = steps.find((s) => s.first > i);
    if (next && out.at(-1) !== next.step) out.push(next.step);
  });
  return out;
}
