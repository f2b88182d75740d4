import { cacheHitRate } from '../../metrics/cacheHitRate';
import { agentReuseOfCalls } from '../../metrics/prefixReuse';
import { priceRun } from '../../pricing/costUsd';
import type { ReplayTotals, StepMetrics } from './ReplayTypes';
import { invalidCounts } from './requestValidity';
import { REUSE_BREAKS, type ReuseBreak } from './reuseBreak';

/** The `p`th percentile (nearest rank) of `xs`; 0 for none. */
function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
}

const sum = (steps: readonly StepMetrics[], pick: (s: StepMetrics) => number) => steps.reduce((n, s) => n + pick(s), 0);
/** The plain mean of `xs`; 0 for none. */
const mean = (xs: readonly number[]) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * Totals of a replay (`[replay-totals]`): every count is the sum of the steps' counts; rates are
 * computed from those sums (hit rate, pooled recall, byte-weighted reuse over the steps after the
 * first) or are means of the per-step values where said; money is the steps' tokens at `model`'s
 * list prices (`[cost-usd]`), null without one (no model, or a model the table does not price).
 */
export function replayTotals(steps: readonly StepMetrics[], model?: string): ReplayTotals {
  const input = sum(steps, (s) => s.input);
  const cacheRead = sum(steps, (s) => s.cacheRead);
  const cacheWrite = sum(steps, (s) => s.cacheWrite);
  const later = steps.slice(1);
  const recalls = steps.flatMap((s) => (s.neededReferenceRecall === undefined ? [] : [s.neededReferenceRecall]));
  const references = sum(steps, (s) => s.references);
  const referencesHeld = sum(steps, (s) => s.referencesHeld);
  const promptTokens = sum(steps, (s) => s.promptTokens);
  const reuseBreaks = Object.fromEntries(REUSE_BREAKS.map((b) => [b, 0])) as Record<ReuseBreak, number>;
  const lostBytes = Object.fromEntries(REUSE_BREAKS.map((b) => [b, 0])) as Record<ReuseBreak, number>;
  for (const s of later) {
    if (s.reuseBreak === undefined) continue;
    reuseBreaks[s.reuseBreak]++;
    lostBytes[s.reuseBreak] += s.promptBytes - s.reusedBytes;
  }
  const { usd, ...pricing } = model === undefined ? { usd: null, model: '', note: 'no model to price', callsOverStandardRate: 0 } : priceRun(model, steps);
  const totals: ReplayTotals = {
    steps: steps.length,
    promptTokens,
    input,
    cacheRead,
    cacheWrite,
    cacheWrite1h: sum(steps, (s) => s.cacheWrite1h),
    output: sum(steps, (s) => s.output),
    hitRate: cacheHitRate({ input, cacheRead, cacheWrite }),
    costUsd: usd,
    pricing,
    promptBytes: sum(steps, (s) => s.promptBytes),
    reusedBytes: sum(steps, (s) => s.reusedBytes),
    prefixReuse: agentReuseOfCalls(steps),
    meanPrefixReuse: mean(later.map((s) => s.prefixReuse)),
    reuseBreaks,
    lostBytes,
    meanPromptTokens: steps.length > 0 ? promptTokens / steps.length : 0,
    maxPromptTokens: steps.reduce((m, s) => Math.max(m, s.promptTokens), 0),
    references,
    referencesHeld,
    rereadsForced: sum(steps, (s) => s.rereadsForced),
    toolResults: sum(steps, (s) => s.toolResults),
    orphanedToolResults: sum(steps, (s) => s.orphanedToolResults),
    invalidRequests: steps.filter((s) => s.invalid !== undefined).length,
    invalidReasons: invalidCounts(steps.map((s) => s.invalid)),
    generations: steps.at(-1)?.generation ?? 0,
    rebuilds: steps.filter((s) => s.boundary === 'rebuild').length,
    refreshes: sum(steps, (s) => s.refreshes),
    limitRefreshes: sum(steps, (s) => s.limitRefreshes),
    overBudgetSteps: steps.filter((s) => s.overBudget).length,
    recordedOverWindowSteps: steps.filter((s) => s.recordedOverWindow).length,
    overheadMs: sum(steps, (s) => s.overheadMs),
    overheadP50Ms: percentile(steps.map((s) => s.overheadMs), 50),
    overheadP95Ms: percentile(steps.map((s) => s.overheadMs), 95),
    tokenizeMs: sum(steps, (s) => s.tokenizeMs),
    overheadExclTokenizeP50Ms: percentile(steps.map((s) => s.overheadMs - s.tokenizeMs), 50),
  };
  if (recalls.length > 0) totals.neededReferenceRecall = mean(recalls);
  if (references > 0) totals.pooledReferenceRecall = referencesHeld / references;
  return totals;
}
