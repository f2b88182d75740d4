/**
 * A session's subagent runs, each read from a file of its own, joined into the session's trace as
 * child agents (pure; `[trace-claude-subagents]`, `[trace-codex-subagents]`): a run goes right after
 * the parent's tool call that launched it, when known, else before the first main event recorded
 * after the run's first event, else at the end; bracketed by `subagent_spawn` (parent call, label)
 * and `subagent_return`, every event of it carrying the agent id. Steps are then renumbered over
 * the whole tree (keyed by file, agent and step), so no two agents share one.
 */
import type { TraceEvent, TraceImport } from './TraceEvent';

export interface SubagentFile {
  /** The subagent's events, imported from its own file. */
  trace: TraceImport;
  agentId: string;
  /** The parent's tool call that launched it, when the files record it. */
  parentCallId?: string;
  /** Its agent type, path or description, when recorded. */
  label?: string;
}

const time = (e: TraceEvent): number => (e.at === undefined ? NaN : Date.parse(e.at));

export function mergeCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
}

/** Where the run of `sub` goes in `main`: the index before which its events are inserted. */
function insertionIndex(main: readonly TraceEvent[], sub: SubagentFile): number {
  if (sub.parentCallId !== undefined) {
    const call = main.findIndex((e) => e.type === 'tool_call' && e.callId === sub.parentCallId && e.agentId === undefined);
    if (call >= 0) {
      // After the rest of the launching response (parallel launches, its usage).
      const step = main[call]?.step;
      let i = call + 1;
      while (i < main.length && main[i]?.step === step && main[i]?.agentId === undefined) i++;
      return i;
    }
  }
  const first = sub.trace.events.find((e) => Number.isFinite(time(e)));
  if (first) {
    const t = time(first);
    const later = main.findIndex((e) => time(e) > t);
    if (later >= 0) return later;
  }
  return main.length;
}

/** `main` with each subagent's run inserted (see the module comment). */
export function joinRuns(main: readonly TraceEvent[], subs: readonly SubagentFile[]): TraceEvent[] {
  const inserts = new Map<number, TraceEvent[]>();
  for (const sub of subs) {
    const at = insertionIndex(main, sub);
    const events = sub.trace.events;
    const first = events[0];
    const last = events.at(-1);
    if (!first || !last) continue;
    const run: TraceEvent[] = [
      { type: 'subagent_spawn', agentId: sub.agentId, ...(sub.parentCallId ? { parentCallId: sub.parentCallId } : {}), ...(sub.label ? { label: sub.label } : {}), ...(first.at ? { at: first.at } : {}), source: first.source },
      ...events.map((e) => ({ ...e, agentId: sub.agentId })),
      { type: 'subagent_return', agentId: sub.agentId, ...(last.at ? { at: last.at } : {}), source: last.source },
    ];
    inserts.set(at, [...(inserts.get(at) ?? []), ...run]);
  }
  const out: TraceEvent[] = [];
  main.forEach((e, i) => {
    out.push(...(inserts.get(i) ?? []));
    out.push(e);
  });
  out.push(...(inserts.get(main.length) ?? []));
  return out;
}

/** Steps renumbered over all events in order of first appearance (keyed by file and step; a compaction call gets its own). */
export function renumberSteps(events: readonly TraceEvent[]): TraceEvent[] {
  const numbers = new Map<string, number>();
  let next = 0;
  return events.map((e) => {
    if (e.type === 'usage' && e.call === 'compaction' && e.step === undefined) return { ...e, step: next++ };
    if (e.step === undefined) return e;
    const key = `${e.source.file}\0${e.agentId ?? ''}\0${e.step}`;
    let n = numbers.get(key);
    if (n === undefined) {
      n = next++;
      numbers.set(key, n);
    }
    return n === e.step ? e : { ...e, step: n };
  });
}

