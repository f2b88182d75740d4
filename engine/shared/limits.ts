/**
 * The limits the host enforces and the views check before they ask, defined once. Plain values with
 * no import, so the contract's schemas, the host and the renderer all read the same numbers.
 */

/**
 * Largest trace text `importTraceContent` takes, in UTF-8 bytes (a file picked or dropped in a view;
 * larger files are imported by path). The web host's frame limit is sized from it.
 */
export const MAX_TRACE_CONTENT_BYTES = 16 * 2 ** 20;

/** Budgets a comparison accepts (the same bounds as `strata compare --budget`). */
export const COMPARISON_BUDGET = { min: 1000, max: 2_000_000 } as const;
/** Context windows a comparison accepts (the same bounds as `strata compare --window`). */
export const COMPARISON_WINDOW = { min: 1000, max: 10_000_000 } as const;
/** Budgets one comparison may replay each strategy at (every strategy but the baselines runs at each). */
export const COMPARISON_MAX_BUDGETS = 6;
/** Traces one comparison may name. */
export const COMPARISON_MAX_TRACES = 20;

/** Budgets `attachSession` accepts for the engine that replays an attached session. */
export const ATTACH_BUDGET = { min: 1000, max: 2_000_000 } as const;
/** The budget an attached session replays at when `attachSession` names none. */
export const DEFAULT_ATTACH_BUDGET = 100_000;

/** Longest task a model run takes (`startRun` with the model driver), in characters. */
export const MODEL_RUN_TASK_MAX = 4000;
/** Longest model name a model run takes, in characters. */
export const MODEL_NAME_MAX = 200;
