import type { ComparisonDto, TraceDto } from '../../../engine/contract';
import { allTracesTotals } from '../../store/comparisons/comparisonsSelectors';

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

/** The all-traces section's columns: one row per strategy and budget over every trace (as the totals table's footer). */
export const CSV_ALL_TRACES_COLUMNS = ['all_traces', 'strategy', 'budget', 'traces', 'priced_traces', 'steps', 'prompt_tokens', 'uncached_tokens', 'prompt_usd', 'total_usd', 'cache_ttl', 'hit_rate', 'prefix_reuse', 'needed_reference_recall', 'pooled_reference_recall', 'rereads_forced', 'orphans', 'invalid', 'refreshes'] as const;

/** The recorded section's columns: per trace, what the recording agent's provider billed and how each modelled baseline compares. */
export const CSV_RECORDED_COLUMNS = [
  'recorded_trace_id',
  'trace_name',
  'model',
  'calls',
  'prompt_tokens',
  'uncached_tokens',
  'cache_write_tokens',
  'writes_missing',
  'hit_rate',
  'cost_usd',
  'rereads',
  'as_recorded_provider',
  'as_recorded_prompt_tokens',
  'as_recorded_hit_rate',
  'as_recorded_prompt_error',
  'as_recorded_cache_read_error',
  'full_history_provider',
  'full_history_prompt_tokens',
  'full_history_hit_rate',
  'full_history_prompt_error',
  'full_history_cache_read_error',
  'prefix_note',
  'prefix_estimated',
  'token_scale',
] as const;

/**
 * The comparison as CSV (`\n` line ends), in up to three sections separated by a blank line, each
 * with its own header: one line per replay (the totals); with several traces, the all-traces rows
 * (one per strategy and budget, as the table's footer); and the recorded table (what the provider
 * billed per trace), when there is one: the figures the JSON export carries.
 */
export function comparisonCsv(c: ComparisonDto, traces: readonly TraceDto[]): string {
  const names = new Map([...(c.traces ?? []).map((t) => [t.traceId, t.name] as const), ...traces.map((t) => [t.id, t.name] as const)]);
  const row = (values: readonly unknown[]) => values.map(cell).join(',');
  const lines = c.results.map((r) =>
    row([
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
    ]),
  );
  const sections = [[CSV_COLUMNS.join(','), ...lines]];
  const traceCount = new Set(c.results.map((r) => r.traceId)).size;
  if (traceCount > 1) {
    sections.push([
      CSV_ALL_TRACES_COLUMNS.join(','),
      ...allTracesTotals(c.results).map((a) =>
        row([`all ${traceCount} traces`, a.strategy, a.budget, a.traces, a.pricedTraces, a.steps, a.promptTokens, a.uncachedTokens, a.promptUsd, a.totalUsd, a.ttl, a.hitRate, a.prefixReuse, a.neededReferenceRecall, a.pooledReferenceRecall, a.rereadsForced, a.orphans, a.invalid, a.refreshes]),
      ),
    ]);
  }
  if (c.recorded.length > 0) {
    sections.push([
      CSV_RECORDED_COLUMNS.join(','),
      ...c.recorded.map((r) =>
        row([
          r.traceId,
          names.get(r.traceId) ?? '',
          r.model,
          r.calls,
          r.promptTokens,
          r.uncachedTokens,
          r.cacheWriteTokens,
          r.writesMissing,
          r.hitRate,
          r.costUsd,
          r.rereads,
          r.asRecorded?.provider ?? null,
          r.asRecorded?.promptTokens ?? null,
          r.asRecorded?.hitRate ?? null,
          r.asRecorded?.promptError ?? null,
          r.asRecorded?.cacheReadError ?? null,
          r.fullHistory?.provider ?? null,
          r.fullHistory?.promptTokens ?? null,
          r.fullHistory?.hitRate ?? null,
          r.fullHistory?.promptError ?? null,
          r.fullHistory?.cacheReadError ?? null,
          r.prefix?.note ?? null,
          r.prefix?.estimated ?? null,
          r.prefix?.tokenScale ?? null,
        ]),
      ),
    ]);
  }
  return sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

/** The whole comparison (totals, per-step series, failed replays, what the provider recorded), its all-traces rows and the traces it names, as JSON. */
export function comparisonJson(c: ComparisonDto, traces: readonly TraceDto[]): string {
  const named = traces.filter((t) => c.traceIds.includes(t.id));
  const allTraces = new Set(c.results.map((r) => r.traceId)).size > 1 ? allTracesTotals(c.results) : [];
  return JSON.stringify({ format: 'strata-comparison', version: 1, comparison: c, allTraces, traces: named }, null, 2) + '\n';
}

/** A file name for an export of `c`: `strata-cmp-3.csv`. */
export const exportName = (c: ComparisonDto, ext: string): string => `strata-${c.comparisonId}.${ext}`;
