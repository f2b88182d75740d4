import type { ComparisonDto, ComparisonStrategy, ComparisonSummaryDto } from '../../../engine/contract';
import { COMPARISON_MAX_TRACES } from '../../../engine/shared/limits';
import type { Action } from '../actions';
import type { ComparisonForm } from './comparisonsActions';

interface ComparisonProgress {
  done: number;
  total: number;
  status: ComparisonDto['status'];
}

export interface ComparisonsState {
  /** The comparison the view shows (the last one started here). */
  currentId: string | null;
  /** Full DTOs as last fetched with `getComparison`. */
  byId: Record<string, ComparisonDto>;
  /** Live progress from `comparison.progress`, never moving backwards. */
  progress: Record<string, ComparisonProgress>;
  /** The form the next run is started from. */
  form: ComparisonForm;
  /** The trace the current comparison's charts show; null: its first trace with results. */
  chartTraceId: string | null;
  /** The budget the current comparison's per-step charts show (with the baselines); null: its first. */
  chartBudget: number | null;
  /** The workspace's comparisons, newest first (`listComparisons`): the history to reopen. */
  history: ComparisonSummaryDto[];
  starting: boolean;
  error: string | null;
}

const DEFAULT_STRATEGIES: ComparisonStrategy[] = ['variable', 'full_history_baseline'];
const DEFAULT_BUDGET = 32_000;

export const comparisonsInitialState: ComparisonsState = {
  currentId: null,
  byId: {},
  progress: {},
  form: { traceIds: [], strategies: DEFAULT_STRATEGIES, budget: DEFAULT_BUDGET, ttl: '', model: '', window: '' },
  chartTraceId: null,
  chartBudget: null,
  history: [],
  starting: false,
  error: null,
};

const rank = (p: ComparisonProgress) => p.done + (p.status === 'running' ? 0 : 0.5);

/** A newer progress replaces the known one; an older one (fewer done, or running after the end) is dropped. */
function mergeProgress(known: ComparisonProgress | undefined, incoming: ComparisonProgress): ComparisonProgress {
  if (!known) return incoming;
  if (known.status !== 'running') return known;
  return rank(incoming) >= rank(known) ? incoming : known;
}

export function reduceComparisons(state: ComparisonsState, action: Action): ComparisonsState {
  switch (action.type) {
    case 'compare.form':
      return { ...state, form: { ...state.form, ...action.form } };
    case 'compare.addTrace': {
      // An imported trace joins the selection, unless it is there already or the selection is full.
      const ids = state.form.traceIds;
      if (ids.includes(action.traceId) || ids.length >= COMPARISON_MAX_TRACES) return state;
      return { ...state, form: { ...state.form, traceIds: [...ids, action.traceId] } };
    }
    case 'compare.chartTrace':
      return action.traceId === state.chartTraceId ? state : { ...state, chartTraceId: action.traceId };
    case 'compare.chartBudget':
      return action.budget === state.chartBudget ? state : { ...state, chartBudget: action.budget };
    case 'compare.history':
      return { ...state, history: action.comparisons };
    case 'compare.open':
      // Reopening shows the saved result; its charts start at its first trace and budget.
      return action.comparisonId === state.currentId ? state : { ...state, currentId: action.comparisonId, chartTraceId: null, chartBudget: null, error: null };
    case 'compare.starting':
      return { ...state, starting: true, error: null };
    case 'compare.loaded': {
      const c = action.comparison;
      const progress = mergeProgress(state.progress[c.comparisonId], { done: c.progress.done, total: c.progress.total, status: c.status });
      return {
        ...state,
        starting: false,
        currentId: action.current ? c.comparisonId : state.currentId,
        // A newly current comparison charts its first trace again.
        chartTraceId: action.current && c.comparisonId !== state.currentId ? null : state.chartTraceId,
        chartBudget: action.current && c.comparisonId !== state.currentId ? null : state.chartBudget,
        byId: { ...state.byId, [c.comparisonId]: c },
        progress: { ...state.progress, [c.comparisonId]: progress },
      };
    }
    case 'compare.error':
      return { ...state, starting: false, error: action.message };
    case 'event': {
      if (action.event.name !== 'comparison.progress') return state;
      const { comparisonId, done, total, status } = action.event.payload;
      const next = mergeProgress(state.progress[comparisonId], { done, total, status });
      return next === state.progress[comparisonId] ? state : { ...state, progress: { ...state.progress, [comparisonId]: next } };
    }
    default:
      return state;
  }
}
