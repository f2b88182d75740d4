import { cacheHitRate } from '../../engine/metrics/cacheHitRate';
import type { UsageTotals } from '../../engine/contract';
import type { CallPoint } from '../store/usage/usageSlice';
import { bucketWidth, overallBucketLimit } from './timeBuckets';

/** Agents drawn at most, one line each: more would be a tangle nobody can read. */
export const agentLineLimit = 8;

/** One slice of the per-agent chart: its middle, and under `lineKey(agent)` each drawn agent's hit rate (null: no call of that agent in the slice). */
export interface AgentLineRow {
  at: number;
  from: number;
  to: number;
  [line: string]: number | null;
}

/** The key of an agent's value in a row (prefixed, so an agent called `at` cannot clash). */
export const lineKey = (agentId: string): string => `hit:${agentId}`;

export interface AgentLinesData {
  rows: AgentLineRow[];
  /** The agents drawn, the selected one first, then the most active in the window. */
  agents: string[];
  /** Agents with calls in the window that are not drawn. */
  omitted: number;
  width: number;
}

const localOffset = (at: number) => new Date(at).getTimezoneOffset() * 60_000;
const add = (a: UsageTotals, b: UsageTotals): UsageTotals => ({ input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite, output: a.output + b.output });

/**
 * Each agent's own cache hit rate per time slice (the slices of the all-agents charts), instead of
 * their mean: a hit rate over the slice's summed figures of record (SPEC [hit-rate-def]), one line
 * per agent, at most `limit` agents (`selected` always among them).
 */
export function buildAgentLines(points: CallPoint[], selected: string | null, limit = agentLineLimit, sliceLimit = overallBucketLimit): AgentLinesData {
  const first = points[0]?.at;
  const last = points.at(-1)?.at;
  if (first === undefined || last === undefined) return { rows: [], agents: [], omitted: 0, width: 1000 };
  const calls = new Map<string, number>();
  for (const p of points) calls.set(p.agentId, (calls.get(p.agentId) ?? 0) + 1);
  const ranked = [...calls.keys()].sort((a, b) => (calls.get(b) as number) - (calls.get(a) as number) || (a < b ? -1 : a > b ? 1 : 0));
  const agents = (selected && calls.has(selected) ? [selected, ...ranked.filter((a) => a !== selected)] : ranked).slice(0, limit);
  const drawn = new Set(agents);
  const width = bucketWidth(first, last, sliceLimit);
  const off = localOffset(first);
  const start = Math.floor((first - off) / width) * width + off;
  const count = Math.floor((last - start) / width) + 1;
  const sums: Map<string, UsageTotals>[] = Array.from({ length: count }, () => new Map());
  for (const p of points) {
    if (!drawn.has(p.agentId)) continue;
    const slice = sums[Math.min(count - 1, Math.max(0, Math.floor((p.at - start) / width)))] as Map<string, UsageTotals>;
    const had = slice.get(p.agentId);
    slice.set(p.agentId, had ? add(had, p.usage) : p.usage);
  }
  const rows = sums.map((slice, i) => {
    const from = start + i * width;
    const row: AgentLineRow = { at: from + width / 2, from, to: from + width - 1 };
    for (const id of agents) {
      const u = slice.get(id);
      row[lineKey(id)] = u ? cacheHitRate(u) : null;
    }
    return row;
  });
  return { rows, agents, omitted: calls.size - agents.length, width };
}
