import type { ComparisonStrategy } from '../../../engine/contract';

export const STRATEGY_LABEL: Record<ComparisonStrategy, string> = {
  variable: 'variable',
  full_history: 'full history',
  summary: 'summary',
  aggressive_refresh: 'aggressive refresh',
  role_optimized: 'role optimized',
  full_history_baseline: 'baseline (transcript)',
  as_recorded: 'as recorded',
};

/** One colour per strategy, from the theme's variables only. */
export const STRATEGY_COLOR: Record<ComparisonStrategy, string> = {
  variable: 'var(--accent)',
  full_history: 'var(--warn)',
  summary: 'var(--ok)',
  aggressive_refresh: 'var(--refresh)',
  role_optimized: 'var(--bad)',
  full_history_baseline: 'var(--muted)',
  as_recorded: 'var(--text)',
};
