/**
 * The strategy names, defined once: the contract's enums are built from these lists, the engine's
 * strategy table is keyed by them, and the views list them in this order.
 */

/** The engine's own strategies, the default first (an attached session replays under one of them). */
export const ENGINE_STRATEGIES = ['variable', 'full_history', 'summary', 'aggressive_refresh', 'role_optimized'] as const;
export type EngineStrategyName = (typeof ENGINE_STRATEGIES)[number];

/**
 * Every strategy a comparison accepts: the engine's, then the two baselines priced without the
 * engine, the plain transcript with no limit (`full_history_baseline`) and the agent as it actually
 * ran, following its own compactions (`as_recorded`).
 */
export const COMPARISON_STRATEGIES = [...ENGINE_STRATEGIES, 'full_history_baseline', 'as_recorded'] as const;
