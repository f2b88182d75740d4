import type { AgentRole } from '../contract';
import type { ContextItem } from '../items/ContextItem';
import type { EngineStrategyName } from '../shared/strategyNames';

/** Names of the engine strategies (spec "Strategies"): the pure layer's list, which the contract's enum is built from. */
export type StrategyName = EngineStrategyName;

export interface StrategyContext {
  role: AgentRole;
  phase: string;
  taskId: string;
  dependencyTaskIds?: string[];
}

/**
 * How one strategy shapes a build. Strategies differ only in these knobs and in which items they
 * leave out; packing, layering and generations are shared (`[strategy-interface]`).
 */
export interface Strategy {
  name: StrategyName;
  /** Share of the agent's budget this strategy works with (tighter budgets < 1). */
  budgetFactor: number;
  /** Share of the (effective) budget a fresh pack fills; the rest is room to append. */
  packRatio: number;
  /** `score`: class + score packing; `recent`: the newest items that fit, rendered oldest first. */
  order: 'score' | 'recent';
  /**
   * Why this strategy leaves `item` out, or undefined. It may look only at the item's class,
   * kind, source, task id, phase, pinned and mandatory: a build decides each combination once.
   */
  exclude(item: ContextItem, ctx: StrategyContext): string | undefined;
}
