import { aggressiveRefresh } from './aggressiveRefresh';
import { fullHistory } from './fullHistory';
import { roleOptimized } from './roleOptimized';
import type { Strategy, StrategyName } from './Strategy';
import { summary } from './summary';
import { variable } from './variable';

/** Every strategy by name; `variable` is the default. */
export const strategies: Readonly<Record<StrategyName, Strategy>> = {
  variable,
  full_history: fullHistory,
  summary,
  aggressive_refresh: aggressiveRefresh,
  role_optimized: roleOptimized,
};

export const strategyNames = Object.keys(strategies) as StrategyName[];
