import type { Strategy } from './Strategy';

/** The default: class + score packing; raw history is for observability, never packed. */
export const variable: Strategy = {
  name: 'variable',
  budgetFactor: 1,
  packRatio: 0.6,
  order: 'score',
  exclude: (item) => (item.class === 'raw_history' ? 'strategy variable: raw history is for observability only' : undefined),
};
