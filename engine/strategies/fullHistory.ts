import type { Strategy } from './Strategy';

/** The transcript baseline: chronological fill, raw history included, until the budget. */
export const fullHistory: Strategy = {
  name: 'full_history',
  budgetFactor: 1,
  packRatio: 0.9,
  order: 'recent',
  exclude: () => undefined,
};
