import { autoRefreshDue, type Indicators } from '../refresh/indicators';
import type { Boundary } from './Generation';

/**
 * When a build starts a new generation, and why, as decisions over plain inputs; the Engine asks
 * at each build and starts the generation itself.
 */

/** A boundary asked for before the build that starts it; `auto` marks an indicator-triggered refresh. */
export type PendingBoundary = Boundary & { auto?: boolean };

/**
 * The boundary a build opens with, before anything is appended: the one asked for (a refresh, a
 * rebuild, a pin, scope or strategy change, `[scope-fixed]`), else the first build's, else a phase
 * change's. Undefined: the build appends inside the current generation (`[boundary-only-evict]`).
 */
export function openingBoundary(pending: PendingBoundary | undefined, current: { phase: string } | undefined, phase: string): Boundary | undefined {
  if (!current) return pending ?? { kind: 'start', reason: 'first build' };
  if (pending) return pending;
  return current.phase !== phase ? { kind: 'rebuild', reason: `phase changed: ${current.phase} → ${phase}` } : undefined;
}

/** `[rebuild-at-budget]`: appending would exceed the budget, so the build starts a new generation (a rebuild, not a refresh). */
export function budgetBoundary(budget: number): Boundary {
  return { kind: 'rebuild', reason: `budget reached: appending would exceed ${budget} tokens` };
}

export interface IndicatorRefreshInput {
  /** `EngineOptions.autoRefresh`. */
  autoRefresh: boolean;
  /** True when this build began a generation: a fresh one is never refreshed on its own first figures. */
  started: boolean;
  indicators: Indicators;
}

/**
 * `[auto-refresh-rule]`: the refresh a build's indicators ask for at the agent's next build, when
 * `autoRefresh` is on and the rule is due (`[no-single-trigger]`); undefined otherwise.
 */
export function indicatorRefresh(i: IndicatorRefreshInput): PendingBoundary | undefined {
  if (!i.autoRefresh || i.started || !autoRefreshDue(i.indicators)) return undefined;
  return { kind: 'refresh', reason: `indicators: ${i.indicators.fired.join(', ')}`, auto: true };
}
