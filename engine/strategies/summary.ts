import type { Strategy } from './Strategy';

/** Keep task state, findings and reports; omit the rest. */
export const summary: Strategy = {
  name: 'summary',
  budgetFactor: 1,
  packRatio: 0.6,
  order: 'score',
  exclude: (item) =>
    item.class === 'task_state' || item.class === 'finding' || item.kind === 'report'
      ? undefined
      : `strategy summary: keeps task state, findings and reports only (${item.class})`,
};
