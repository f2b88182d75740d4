import type { Strategy } from './Strategy';

/** A tighter budget, and material of other phases left out as noise. */
export const aggressiveRefresh: Strategy = {
  name: 'aggressive_refresh',
  budgetFactor: 0.6,
  packRatio: 0.6,
  order: 'score',
  exclude: (item, ctx) => {
    if (item.class === 'raw_history') return 'strategy aggressive_refresh: raw history left out';
    if (item.phase !== undefined && item.phase !== ctx.phase && !item.pinned && !item.mandatory) {
      return `strategy aggressive_refresh: material of phase ${item.phase}, current phase ${ctx.phase}`;
    }
    return undefined;
  },
};
