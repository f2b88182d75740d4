import type { ComparisonDto, ComparisonStrategy, ComparisonSummaryDto } from '../../../engine/contract';

/**
 * The Compare form: which traces (at most COMPARISON_MAX_TRACES), strategies and budget the next run
 * uses, and its pricing options: the cache TTL (`''`: each recording's, else 5m), the model priced
 * (`''`: each trace's recorded model) and the context window as typed (`''`: each recording's, else
 * its model's documented one).
 */
export interface ComparisonForm {
  traceIds: string[];
  strategies: ComparisonStrategy[];
  budget: number;
  ttl: '' | '5m' | '1h';
  model: string;
  window: string;
}

/** Actions of the comparisons slice: the form, the run started here, and the comparisons fetched. */
export type ComparisonsAction =
  | { type: 'compare.form'; form: Partial<ComparisonForm> }
  | { type: 'compare.addTrace'; traceId: string }
  | { type: 'compare.chartTrace'; traceId: string | null }
  | { type: 'compare.chartBudget'; budget: number | null }
  | { type: 'compare.history'; comparisons: ComparisonSummaryDto[] }
  | { type: 'compare.open'; comparisonId: string }
  | { type: 'compare.starting' }
  | { type: 'compare.loaded'; comparison: ComparisonDto; current?: boolean }
  | { type: 'compare.error'; message: string };
