import type { ComparisonDto, TraceDto } from '../../../engine/contract';

/** The CSV columns: one row per replay (trace × strategy), the totals `strata compare` tabulates. */
export const CSV_COLUMNS = [
  'trace_id',
  'trace_name',
  'strategy',
  'budget',
  'steps',
  'prompt_tokens',
  'mean_prompt_tokens',
  'uncached_tokens',
  'prompt_usd',
  'total_usd',
  'input_usd',
  'cache_read_usd',
  'cache_write_usd',
  'output_usd',
  'priced_model',
  'price_note',
  'cache_ttl',
  'cache_ttl_source',
  'context_window',
  'context_window_source',
  'hit_rate',
  'prefix_reuse',
  'needed_reference_recall',
  'pooled_reference_recall',
  'references_needed',
  'references_held',
  'rereads_forced',
  'orphans',
  'invalid',
  'refreshes',
  'overhead_p50_ms',
] as const;

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The comparison's totals as CSV (header first, one line per replay, `\n` line ends). */
export function comparisonCsv(c: ComparisonDto, traces: readonly TraceDto[]): string {
  const names = new Map(traces.map((t) => [t.id, t.name]));
  const lines = c.results.map((r) =>
    [
      r.traceId,
      names.get(r.traceId) ?? '',
      r.strategy,
      r.budget,
      r.totals.steps,
      r.totals.promptTokens,
      r.totals.meanPromptTokens,
      r.totals.uncachedTokens,
      r.totals.costUsd?.prompt ?? null,
      r.totals.costUsd?.total ?? null,
      r.totals.costUsd?.input ?? null,
      r.totals.costUsd?.cacheRead ?? null,
      r.totals.costUsd?.cacheWrite ?? null,
      r.totals.costUsd?.output ?? null,
      r.totals.model,
      r.totals.priceNote,
      r.totals.cacheTtl.ttl,
      r.totals.cacheTtl.source,
      r.totals.window?.tokens ?? null,
      r.totals.window ? `${r.totals.window.source}: ${r.totals.window.why}` : null,
      r.totals.hitRate,
      r.totals.prefixReuse,
      r.totals.neededReferenceRecall,
      r.totals.pooledReferenceRecall,
      r.totals.references.needed,
      r.totals.references.held,
      r.totals.rereadsForced,
      r.totals.orphans,
      r.totals.invalid,
      r.totals.refreshes,
      r.totals.overheadP50Ms,
    ]
      .map(cell)
      .join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\n') + '\n';
}

/** The whole comparison (totals, per-step series, failed replays, what the provider recorded) and the traces it names, as JSON. */
export function comparisonJson(c: ComparisonDto, traces: readonly TraceDto[]): string {
  const named = traces.filter((t) => c.traceIds.includes(t.id));
  return JSON.stringify({ format: 'strata-comparison', version: 1, comparison: c, traces: named }, null, 2) + '\n';
}

/** A file name for an export of `c`: `strata-cmp-3.csv`. */
export const exportName = (c: ComparisonDto, ext: string): string => `strata-${c.comparisonId}.${ext}`;
