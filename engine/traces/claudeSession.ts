/**
 * One Claude Code session as one trace (pure): the main file's events with each subagent's own
 * file (`<session>/subagents/agent-<id>.jsonl`, described by `agent-<id>.meta.json`) joined in as
 * a child agent, the compaction calls the transcript does not show found from the client's billed
 * totals, and the steps numbered over the whole tree.
 *
 * - A subagent's events go right after the parent's tool call that launched it (the meta's
 *   `toolUseId`), else before the first main event recorded after the subagent's first event, else
 *   at the end; bracketed by `subagent_spawn` (with the parent call and the agent type) and
 *   `subagent_return`. Inside, every event carries the agent id.
 * - Compaction calls: Claude Code writes no `assistant` line for the call that writes a compaction
 *   summary, but its running `cost-state` totals include it. Between two totals, what the
 *   transcript's own usage events (main and subagents) do not explain is billed to the compaction
 *   of that interval, as one usage event (`call: 'compaction'`) right after the compaction event.
 *   With no total after a compaction (older clients), its call stays unknown.
 * - Steps are renumbered in order of first appearance over the joined events, keyed by file and
 *   the importer's step, so no two agents share a step.
 */
import { type BilledTotalEvent, type TraceEvent, type TraceImport, type UsageEvent } from './TraceEvent';

export interface SubagentFile {
  /** The subagent's events, imported with `importClaudeCode(text, file, { agentId })`. */
  trace: TraceImport;
  agentId: string;
  /** The parent's tool call that launched it (`meta.toolUseId`). */
  parentCallId?: string;
  /** Its agent type or description (`meta.agentType`, `meta.description`). */
  label?: string;
}

const time = (e: TraceEvent): number => (e.at === undefined ? NaN : Date.parse(e.at));

function mergeCounts(into: Record<string, number>, from: Record<string, number>): void {
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
function joinRuns(main: readonly TraceEvent[], subs: readonly SubagentFile[]): TraceEvent[] {
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

type Parts = Pick<UsageEvent, 'input' | 'cacheRead' | 'cacheWrite' | 'output'> & { cacheWrite1h: number };
const zero = (): Parts => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cacheWrite1h: 0 });
const KEYS = ['input', 'cacheRead', 'cacheWrite', 'output', 'cacheWrite1h'] as const;

/** `events` with a usage event for each compaction call that only the billed totals show. */
export function addCompactionCalls(events: readonly TraceEvent[]): TraceEvent[] {
  const added = new Map<number, UsageEvent>();
  let previous: Parts = zero();
  let seen: Parts = zero();
  let pending: number | undefined;
  let model: string | undefined;
  events.forEach((e, i) => {
    if (e.type === 'usage') {
      for (const k of KEYS) seen[k] += k === 'cacheWrite1h' ? (e.cacheWrite1h ?? 0) : e[k];
      if (e.model && e.agentId === undefined) model = e.model;
      if (e.call === 'compaction' && e.agentId === undefined) pending = undefined;
    } else if (e.type === 'compaction' && e.agentId === undefined) pending = i;
    else if (e.type === 'billed_total' && e.agentId === undefined) {
      const total = e as BilledTotalEvent;
      // A total below the previous one starts a new count (a client that did not restore its totals).
      const base = KEYS.every((k) => (k === 'cacheWrite1h' ? (total.cacheWrite1h ?? 0) : total[k]) >= previous[k]) ? previous : zero();
      const rest = zero();
      for (const k of KEYS) rest[k] = Math.max(0, (k === 'cacheWrite1h' ? (total.cacheWrite1h ?? 0) : total[k]) - base[k] - seen[k]);
      if (pending !== undefined && rest.input + rest.cacheRead + rest.cacheWrite > 0) {
        const at = events[pending] as TraceEvent;
        added.set(pending, {
          type: 'usage',
          call: 'compaction',
          input: rest.input,
          cacheRead: rest.cacheRead,
          cacheWrite: rest.cacheWrite,
          ...(total.cacheWrite1h !== undefined ? { cacheWrite1h: rest.cacheWrite1h } : {}),
          output: rest.output,
          ...(model ? { model } : {}),
          ...(at.at ? { at: at.at } : {}),
          source: total.source,
        });
      }
      pending = undefined;
      previous = { input: total.input, cacheRead: total.cacheRead, cacheWrite: total.cacheWrite, output: total.output, cacheWrite1h: total.cacheWrite1h ?? 0 };
      seen = zero();
    }
  });
  if (added.size === 0) return [...events];
  return events.flatMap((e, i) => (added.has(i) ? [e, added.get(i) as UsageEvent] : [e]));
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

/** The whole session as one trace (see the module comment). */
export function claudeSession(main: TraceImport, subagents: readonly SubagentFile[] = []): TraceImport {
  const skipped = { ...main.skipped };
  const unknown = { ...main.unknown };
  for (const s of subagents) {
    mergeCounts(skipped, s.trace.skipped);
    mergeCounts(unknown, s.trace.unknown);
  }
  const events = renumberSteps(addCompactionCalls(joinRuns(main.events, subagents)));
  const files = [main.file, ...subagents.map((s) => s.trace.file)];
  return { ...main, events, skipped, unknown, ...(subagents.length > 0 ? { files } : {}) };
}
