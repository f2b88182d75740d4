import type { ComparisonDto, ComparisonResultDto, ComparisonStrategy, TraceDto } from '../../../engine/contract';
import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';
import { reuseRatio } from '../../../engine/metrics/prefixReuse';
import { ttlText } from '../../components/format';
import type { RootState } from '../reduce';

/** Named selectors of the Compare view's comparisons. */

export const selectCompareForm = (s: RootState) => s.comparisons.form;
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
function resultsOfTrace(c: ComparisonDto | undefined, traceId: string | undefined): ComparisonResultDto[] {
  if (!c || !traceId) return [];
  return c.results.filter((r) => r.traceId === traceId);
}

export interface ChartData {
  /** The trace charted: the chosen chart trace, else the comparison's first trace with results. */
  traceId: string;
  /** The comparison's traces that have results, in its order (the chart trace choices). */
  traceIds: string[];
  /** The budget the per-step charts show (the baselines, which have none, beside it); null when only baselines ran. */
  budget: number | null;
  /** The budgets the charted trace was replayed at, in the comparison's order (the chart budget choices). */
  budgets: number[];
  /** The charted trace's results at the chart budget and the baselines, in the comparison's strategy order. */
  results: ComparisonResultDto[];
  /** Every result of the charted trace, at every budget (the cost-against-recall points). */
  allBudgets: ComparisonResultDto[];
  strategies: ComparisonStrategy[];
  prompt: CumulativeRow[];
  uncached: CumulativeRow[];
}

/** The comparison's traces that have at least one result, in its order. */
function tracesWithResults(c: ComparisonDto | undefined): string[] {
  if (!c) return [];
  const have = new Set(c.results.map((r) => r.traceId));
  return c.traceIds.filter((id) => have.has(id));
}

/** The budgets of `results` that are not null, in first-seen order. */
const budgetsOf = (results: readonly ComparisonResultDto[]): number[] => [...new Set(results.flatMap((r) => (r.budget === null ? [] : [r.budget])))];

/** The chart data of one trace of `c`: `wanted` when it has results, else the first trace that has; at `wantedBudget` when replayed at it, else the first budget. */
function chartDataOf(c: ComparisonDto | undefined, wanted: string | null, wantedBudget: number | null = null): ChartData | undefined {
  const traceIds = tracesWithResults(c);
  const traceId = wanted && traceIds.includes(wanted) ? wanted : traceIds[0];
  const allBudgets = resultsOfTrace(c, traceId);
  if (!c || !traceId || allBudgets.length === 0) return undefined;
  const budgets = budgetsOf(allBudgets);
  const budget = wantedBudget !== null && budgets.includes(wantedBudget) ? wantedBudget : (budgets[0] ?? null);
  const results = allBudgets.filter((r) => r.budget === null || r.budget === budget);
  return { traceId, traceIds, budget, budgets, results, allBudgets, strategies: results.map((r) => r.strategy), prompt: cumulativeRows(results, (x) => x.promptTokens), uncached: cumulativeRows(results, (x) => x.uncached) };
}

let chartMemo: { c: ComparisonDto | undefined; wanted: string | null; budget: number | null; data: ChartData | undefined } = { c: undefined, wanted: null, budget: null, data: undefined };

/** The current comparison's chart data (the chart trace's at the chart budget), stable while the comparison, the chart trace and budget are the same. */
export function selectChartData(s: RootState): ChartData | undefined {
  const c = selectCurrentComparison(s);
  const wanted = s.comparisons.chartTraceId;
  const budget = s.comparisons.chartBudget;
  if (chartMemo.c === c && chartMemo.wanted === wanted && chartMemo.budget === budget) return chartMemo.data;
  const data = chartDataOf(c, wanted, budget);
  chartMemo = { c, wanted, budget, data };
  return data;
}

export const selectCompareHistory = (s: RootState) => s.comparisons.history;

/** The selected trace ids that are in the list, in the list's order (newest first): what a run sends. */
export function pickedTraceIds(list: readonly TraceDto[], selected: readonly string[]): string[] {
  const want = new Set(selected);
  return list.filter((t) => want.has(t.id)).map((t) => t.id);
}

/** Per strategy, its figures over every trace of a comparison that it replayed. */
export interface AllTracesTotals {
  strategy: ComparisonStrategy;
  budget: number | null;
  /** Traces whose replay under this strategy finished. */
  traces: number;
  steps: number;
  promptTokens: number;
  uncachedTokens: number;
  /** US dollars summed over the traces with a list price (`pricedTraces` of them); null when none has one. */
  promptUsd: number | null;
  totalUsd: number | null;
  pricedTraces: number;
  /** The traces' cache TTLs and why, grouped (`1h: from the recording ×2; 5m: default ×1`). */
  ttl: string;
  /** `cacheHitRate` of the summed tokens. */
  hitRate: number;
  /** `reuseRatio` of the summed bytes after each trace's first step: byte-weighted, as `strata compare`. */
  prefixReuse: number;
  /** Recall per step: the mean over every step (of every trace) that has one; null when none has. */
  neededReferenceRecall: number | null;
  /** Recall pooled: content references held over those needed, summed over the traces; null when none was needed. */
  pooledReferenceRecall: number | null;
  /** Re-reads the strategy's contexts would have forced, summed. */
  rereadsForced: number;
  refreshes: number;
  orphans: number;
  invalid: number;
}

/**
 * The all-traces row of each strategy (and budget), in the order they first appear in `results`, as
 * `strata compare` sums a folder: sums of steps, tokens, dollars (over the priced traces),
 * refreshes, orphans and invalid requests; the hit rate of the summed tokens and the reuse of the summed bytes
 * (the engine's definitions); recall pooled over the summed references and as the mean over the
 * steps that have one.
 */
export function allTracesTotals(results: readonly ComparisonResultDto[]): AllTracesTotals[] {
  // One row per strategy and budget (a comparison may replay several budgets).
  const groups = new Map<string, ComparisonResultDto[]>();
  for (const r of results) groups.set(`${r.strategy}@${r.budget}`, [...(groups.get(`${r.strategy}@${r.budget}`) ?? []), r]);
  return [...groups.values()].map((rs) => {
    const strategy = rs[0]!.strategy;
    const sum = (f: (r: ComparisonResultDto) => number) => rs.reduce((n, r) => n + f(r), 0);
    const prompt = sum((r) => r.totals.promptTokens);
    const uncached = sum((r) => r.totals.uncachedTokens);
    const needed = sum((r) => r.totals.references.needed);
    const recalls = rs.flatMap((r) => r.series.flatMap((step) => (step.recall === null ? [] : [step.recall])));
    const priced = rs.flatMap((r) => (r.totals.costUsd ? [r.totals.costUsd] : []));
    const ttls = new Map<string, number>();
    for (const r of rs) ttls.set(ttlText(r.totals.cacheTtl), (ttls.get(ttlText(r.totals.cacheTtl)) ?? 0) + 1);
    return {
      strategy,
      budget: rs[0]!.budget,
      traces: new Set(rs.map((r) => r.traceId)).size,
      steps: sum((r) => r.totals.steps),
      promptTokens: prompt,
      uncachedTokens: uncached,
      promptUsd: priced.length > 0 ? priced.reduce((n, c) => n + c.prompt, 0) : null,
      totalUsd: priced.length > 0 ? priced.reduce((n, c) => n + c.total, 0) : null,
      pricedTraces: priced.length,
      ttl: ttls.size === 1 ? [...ttls.keys()][0]! : [...ttls].map(([t, n]) => `${t} ×${n}`).join('; '),
      hitRate: cacheHitRate({ input: sum((r) => r.totals.input), cacheRead: sum((r) => r.totals.cacheRead), cacheWrite: sum((r) => r.totals.cacheWrite) }),
      prefixReuse: reuseRatio(sum((r) => r.totals.reuseBytes.reused), sum((r) => r.totals.reuseBytes.prompt)),
      neededReferenceRecall: recalls.length > 0 ? recalls.reduce((a, b) => a + b, 0) / recalls.length : null,
      pooledReferenceRecall: needed > 0 ? sum((r) => r.totals.references.held) / needed : null,
      rereadsForced: sum((r) => r.totals.rereadsForced),
      refreshes: sum((r) => r.totals.refreshes),
      orphans: sum((r) => r.totals.orphans),
      invalid: sum((r) => r.totals.invalid),
    };
  });
}
