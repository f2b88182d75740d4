/**
 * One Claude Code session as one trace (pure): the main file's events with each subagent's own
 * file (`<session>/subagents/agent-<id>.jsonl`, described by `agent-<id>.meta.json`) joined in as
 * a child agent (`joinSubagentRuns.ts`), the compaction calls the transcript does not show found
 * from the client's billed totals, and the steps numbered over the whole tree.
 *
 * - Compaction calls: Claude Code writes no `assistant` line for the call that writes a compaction
 *   summary, but its running `cost-state` totals include it. Between two totals, what the
 *   transcript's own usage events (main and subagents) do not explain is billed to the compaction
 *   of that interval, as one usage event (`call: 'compaction'`) right after the compaction event.
 *   With no total after a compaction (older clients), its call stays unknown.
 */
import { CLAUDE_CODE_COMPACTION } from './compactionRequest';
import { joinRuns, mergeCounts, renumberSteps, type SubagentFile } from './joinSubagentRuns';
import { type BilledTotalEvent, type TraceEvent, type TraceImport, type UsageEvent } from './TraceEvent';

export type { SubagentFile } from './joinSubagentRuns';

type Parts = Pick<UsageEvent, 'input' | 'cacheRead' | 'cacheWrite' | 'output'> & { cacheWrite1h: number };
const zero = (): Parts => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cacheWrite1h: 0 });
const KEYS = ['input', 'cacheRead', 'cacheWrite', 'output', 'cacheWrite1h'] as const;

/** `events` with a usage event for each compaction call that only the billed totals show. */
function addCompactionCalls(events: readonly TraceEvent[]): TraceEvent[] {
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
          compactionRequest: CLAUDE_CODE_COMPACTION,
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
