import type { LiveSessionDetailDto, LiveSessionDto } from '../../engine/contract';

/**
 * The arithmetic of the "Real vs Strata" panel over one `getSession` answer: per-step series for
 * the charts and the totals for the figures table. Pure; the renderer may not import engine values,
 * so the cost weights mirror the engine's `COST_WEIGHTS` (engine/traces/replay/replayTotals.ts),
 * the weights the Compare view's "est. cost" column is computed with.
 */

/** Anthropic list-price units per token: uncached input 1, cache read 0.1, cache write 1.25. */
export const COST_WEIGHTS = { input: 1, cacheRead: 0.1, cacheWrite: 1.25 } as const;

export interface TokenSplit {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Modelled cost of prompt tokens in Anthropic list-price units. */
export const costUnits = (t: TokenSplit): number => t.input * COST_WEIGHTS.input + t.cacheRead * COST_WEIGHTS.cacheRead + t.cacheWrite * COST_WEIGHTS.cacheWrite;

/** cacheRead / (input + cacheRead + cacheWrite); 0 when nothing was sent (DESIGN.md Metrics). */
export function hitRate(t: TokenSplit): number {
  const all = t.input + t.cacheRead + t.cacheWrite;
  return all > 0 ? t.cacheRead / all : 0;
}

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
    Object.assign(row(s.step), { realPrompt: prompt, realUncached: uncached, realHitRate: hitRate(s) });
  }
  prompt = 0;
  uncached = 0;
  for (const s of detail.shadow) {
    prompt += s.promptTokens;
    uncached += s.input;
    Object.assign(row(s.step), { strataPrompt: prompt, strataUncached: uncached, strataHitRate: hitRate(s) });
  }
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

/** The totals of one side of the table; the Strata-only figures are null for the recording. */
export interface SessionTotals {
  steps: number;
  promptTokens: number;
  /** Uncached input tokens (cache writes are priced separately in `cost`). */
  uncached: number;
  cost: number;
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
    real: { steps: r.steps, promptTokens: r.promptTokens, uncached: r.input, cost: costUnits(r), hitRate: r.hitRate, prefixReuse: null, neededReferenceRecall: null, generation: null, refreshes: null },
    strata: s
      ? { steps: s.steps, promptTokens: s.promptTokens, uncached: s.input, cost: costUnits(s), hitRate: s.hitRate, prefixReuse: s.prefixReuse, neededReferenceRecall: s.neededReferenceRecall, generation: s.generation, refreshes: s.refreshes }
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
  cost: number | null;
}

/**
 * Strata's prompt tokens, uncached input and cost relative to the recording's, summed over the
 * steps both series hold. While the replay trails a growing file, its totals cover fewer steps
 * than the recording's, and comparing totals would count the missing steps as a saving.
 */
export function stepMatchedChange(detail: Pick<LiveSessionDetailDto, 'real' | 'shadow'>): StepMatchedChange {
  const strata = new Map(detail.shadow.map((s) => [s.step, s]));
  const real = { prompt: 0, input: 0, cacheRead: 0, cacheWrite: 0 };
  const ours = { prompt: 0, input: 0, cacheRead: 0, cacheWrite: 0 };
  let steps = 0;
  for (const r of detail.real) {
    const s = strata.get(r.step);
    if (!s) continue;
    steps++;
    real.prompt += r.prompt;
    real.input += r.input;
    real.cacheRead += r.cacheRead;
    real.cacheWrite += r.cacheWrite;
    ours.prompt += s.promptTokens;
    ours.input += s.input;
    ours.cacheRead += s.cacheRead;
    ours.cacheWrite += s.cacheWrite;
  }
  if (steps === 0) return { steps, prompt: null, uncached: null, cost: null };
  return { steps, prompt: relativeChange(real.prompt, ours.prompt), uncached: relativeChange(real.input, ours.input), cost: relativeChange(costUnits(real), costUnits(ours)) };
}
