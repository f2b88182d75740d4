import type { LiveSessionDetailDto, LiveSessionDto } from '../../../engine/contract';
import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';

/**
 * The arithmetic of the "Real vs Strata" panel over one `getSession` answer: per-step series for
 * the charts and the totals for the figures table. Pure. The hit rate is the engine's definition
 * (`engine/metrics`); dollars come priced from the host (the one price table, `engine/pricing`),
 * per step and in total, and are only summed here.
 */

/**
 * One chart row per step: recorded (`real…`) and Strata's (`strata…`) figures side by side. The
 * cumulative columns are running totals over each series' own steps; a series without that step
 * (the replay trailing the file, a step without recorded usage) leaves its columns out.
 */
export interface SessionStepRow {
  step: number;
  realPrompt?: number;
  strataPrompt?: number;
  realUncached?: number;
  strataUncached?: number;
  realHitRate?: number;
  strataHitRate?: number;
}

export function sessionStepRows(detail: Pick<LiveSessionDetailDto, 'real' | 'shadow'>): SessionStepRow[] {
  const rows = new Map<number, SessionStepRow>();
  const row = (step: number): SessionStepRow => {
    let r = rows.get(step);
    if (!r) rows.set(step, (r = { step }));
    return r;
  };
  let prompt = 0;
  let uncached = 0;
  for (const s of detail.real) {
    prompt += s.prompt;
    uncached += s.input;
    Object.assign(row(s.step), { realPrompt: prompt, realUncached: uncached, realHitRate: cacheHitRate(s) });
  }
  prompt = 0;
  uncached = 0;
  for (const s of detail.shadow) {
    prompt += s.promptTokens;
    uncached += s.input;
    Object.assign(row(s.step), { strataPrompt: prompt, strataUncached: uncached, strataHitRate: cacheHitRate(s) });
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

/** The totals of one side of the table; the Strata-only figures are null for the recording. */
export interface SessionTotals {
  steps: number;
  promptTokens: number;
  /** Uncached input tokens (cache writes are priced separately in `promptUsd`). */
  uncached: number;
  /** The prompt tokens at the model's list price in US dollars; null without one. */
  promptUsd: number | null;
  hitRate: number;
  prefixReuse: number | null;
  neededReferenceRecall: number | null;
  generation: number | null;
  refreshes: number | null;
}

/** Recorded totals, and Strata's (null until its first replay ends), from the session's figures. */
export function sessionTotals(session: Pick<LiveSessionDto, 'real' | 'shadow'>): { real: SessionTotals; strata: SessionTotals | null } {
  const r = session.real;
  const s = session.shadow;
  return {
    real: { steps: r.steps, promptTokens: r.promptTokens, uncached: r.input, promptUsd: r.promptUsd, hitRate: r.hitRate, prefixReuse: null, neededReferenceRecall: null, generation: null, refreshes: null },
    strata: s
      ? { steps: s.steps, promptTokens: s.promptTokens, uncached: s.input, promptUsd: s.promptUsd, hitRate: s.hitRate, prefixReuse: s.prefixReuse, neededReferenceRecall: s.neededReferenceRecall, generation: s.generation, refreshes: s.refreshes }
      : null,
  };
}

/** Strata's figure relative to the recorded one (−0.25: a quarter less); null without a base. */
export const relativeChange = (real: number, strata: number): number | null => (real > 0 ? (strata - real) / real : null);

/** Strata relative to the recording over the same steps, and how many steps that is. */
export interface StepMatchedChange {
  steps: number;
  prompt: number | null;
  uncached: number | null;
  /** Prompt dollars, relative; null when either side has no list price on a compared step. */
  promptUsd: number | null;
}

/**
 * Strata's prompt tokens, uncached input and prompt dollars relative to the recording's, summed
 * over the steps both series hold. While the replay trails a growing file, its totals cover fewer
 * steps than the recording's, and comparing totals would count the missing steps as a saving.
 */
export function stepMatchedChange(detail: Pick<LiveSessionDetailDto, 'real' | 'shadow'>): StepMatchedChange {
  const strata = new Map(detail.shadow.map((s) => [s.step, s]));
  const real = { prompt: 0, input: 0, usd: 0 as number | null };
  const ours = { prompt: 0, input: 0, usd: 0 as number | null };
  let steps = 0;
  const add = (sum: number | null, x: number | null) => (sum === null || x === null ? null : sum + x);
  for (const r of detail.real) {
    const s = strata.get(r.step);
    if (!s) continue;
    steps++;
    real.prompt += r.prompt;
    real.input += r.input;
    real.usd = add(real.usd, r.promptUsd);
    ours.prompt += s.promptTokens;
    ours.input += s.input;
    ours.usd = add(ours.usd, s.promptUsd);
  }
  if (steps === 0) return { steps, prompt: null, uncached: null, promptUsd: null };
  return {
    steps,
    prompt: relativeChange(real.prompt, ours.prompt),
    uncached: relativeChange(real.input, ours.input),
    promptUsd: real.usd === null || ours.usd === null ? null : relativeChange(real.usd, ours.usd),
  };
}
