import type { ComparisonDto, ComparisonResultDto, ComparisonStrategy, MemoryEntryDto, SkillsDto, TraceDto } from '../../engine/contract';
import type { RootState } from './reduce';

/** Named selectors of the Compare, Memory and Skills views. */

export const selectTraces = (s: RootState): TraceDto[] => s.traces.list;
export const selectTracesState = (s: RootState) => s.traces;
export const selectCompareForm = (s: RootState) => s.comparisons.form;
export const selectCompareStarting = (s: RootState): boolean => s.comparisons.starting;
export const selectCompareError = (s: RootState): string | null => s.comparisons.error;

export const selectCurrentComparison = (s: RootState): ComparisonDto | undefined =>
  s.comparisons.currentId ? s.comparisons.byId[s.comparisons.currentId] : undefined;

/** The current comparison's progress: the live events' figures, or the DTO's. */
export function selectCurrentProgress(s: RootState): { done: number; total: number; status: ComparisonDto['status'] } | undefined {
  const id = s.comparisons.currentId;
  if (!id) return undefined;
  return s.comparisons.progress[id] ?? (s.comparisons.byId[id] ? { ...s.comparisons.byId[id].progress, status: s.comparisons.byId[id].status } : undefined);
}

/** True while the current comparison has not finished, as far as this view knows. */
export const selectCompareRunning = (s: RootState): boolean => {
  const p = selectCurrentProgress(s);
  return s.comparisons.starting || p?.status === 'running';
};

/** One chart row per step: the step number and each strategy's running total. */
export type CumulativeRow = { step: number } & Partial<Record<ComparisonStrategy, number>>;

/**
 * Cumulative per-step series of one trace's results, one column per strategy: `pick` chooses the
 * figure summed (prompt tokens, uncached tokens). Steps are the trace's step numbers; a strategy
 * missing a step keeps no value there.
 */
export function cumulativeRows(results: readonly ComparisonResultDto[], pick: (step: ComparisonResultDto['series'][number]) => number): CumulativeRow[] {
  const rows = new Map<number, CumulativeRow>();
  for (const r of results) {
    let total = 0;
    for (const step of r.series) {
      total += pick(step);
      const row = rows.get(step.step) ?? { step: step.step };
      row[r.strategy] = total;
      rows.set(step.step, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

/** The results of one trace of a comparison, in the comparison's strategy order. */
export function resultsOfTrace(c: ComparisonDto | undefined, traceId: string | undefined): ComparisonResultDto[] {
  if (!c || !traceId) return [];
  return c.results.filter((r) => r.traceId === traceId);
}

export interface ChartData {
  traceId: string;
  strategies: ComparisonStrategy[];
  prompt: CumulativeRow[];
  uncached: CumulativeRow[];
}

let chartMemo: { c: ComparisonDto | undefined; data: ChartData | undefined } = { c: undefined, data: undefined };

/** The current comparison's chart data (its first trace), stable while the comparison is the same object. */
export function selectChartData(s: RootState): ChartData | undefined {
  const c = selectCurrentComparison(s);
  if (chartMemo.c === c) return chartMemo.data;
  const traceId = c?.traceIds[0];
  const results = resultsOfTrace(c, traceId);
  const data =
    c && traceId && results.length > 0
      ? { traceId, strategies: results.map((r) => r.strategy), prompt: cumulativeRows(results, (x) => x.promptTokens), uncached: cumulativeRows(results, (x) => x.uncached) }
      : undefined;
  chartMemo = { c, data };
  return data;
}

/** Memory entries, newest first; optionally without retired and deleted ones. */
export const selectMemoryState = (s: RootState) => s.memory;
export const selectMemoryEntries = (s: RootState): MemoryEntryDto[] => s.memory.entries;

/** Counts per state, for the header. */
export function memoryCounts(entries: readonly MemoryEntryDto[]): Record<MemoryEntryDto['state'], number> {
  const counts = { candidate: 0, verified: 0, stale: 0, retired: 0, deleted: 0 };
  for (const e of entries) counts[e.state]++;
  return counts;
}

/** How fresh an entry's observation is: stale when its evidence changed, else its age. */
export function freshness(entry: MemoryEntryDto, now: number): { label: string; level: 'fresh' | 'aging' | 'stale' } {
  if (entry.state === 'stale') return { label: 'stale: its evidence changed since it was observed', level: 'stale' };
  const days = Math.max(0, Math.floor((now - entry.provenance.observedAt) / 86_400_000));
  const label = days === 0 ? 'observed today' : days === 1 ? 'observed 1 day ago' : `observed ${days} days ago`;
  return { label, level: days > 30 ? 'aging' : 'fresh' };
}

export const selectSkillsState = (s: RootState) => s.skills;

/** Per loaded skill, the agents whose last request carried it. */
export function skillUsers(skills: SkillsDto): Record<string, string[]> {
  const users: Record<string, string[]> = {};
  for (const sel of skills.selected) for (const name of sel.names) (users[name] ??= []).push(sel.agentId);
  return users;
}
