import type { ToolResultRef } from './conversation';
import type { ResolvedOptions } from './managerOptions';
import { placeholderText, removedText } from './placeholder';
import { protectedResults } from './protectedResults';

/** A result the current generation shows as a placeholder (`kind: 'hidden'`) or as the operator's removal. */
export interface HiddenResult {
  kind: 'hidden' | 'removed';
  tool: string;
  /** The result's own text, so a changed result is never covered by an old placeholder. */
  source: string;
  text: string;
  beforeTokens: number;
  afterTokens: number;
  why: string;
}

/** A result of the request with its token count. */
export type CountedResult = ToolResultRef & { tokens: number };

export interface PlanInput {
  results: readonly CountedResult[];
  currentTurnFrom: number;
  /** The previous generation's choices, carried over where the result is unchanged. */
  previous: ReadonlyMap<string, HiddenResult>;
  pins: ReadonlySet<string>;
  removals: ReadonlySet<string>;
  /** The number of the generation being opened, written into new placeholders. */
  generation: number;
  /** The request's tokens with nothing hidden. */
  originalTokens: number;
  /** A placeholder already made for an unchanged result (the same item always gets the same bytes). */
  placeholderOf(result: CountedResult, generation: number): { text: string; tokens: number };
  countTokens(text: string): number;
}

export interface Plan {
  hidden: Map<string, HiddenResult>;
  estimate: number;
  /** The request would still be over the low watermark with every hideable result hidden. */
  short: boolean;
}

const savedBy = (h: HiddenResult) => h.beforeTokens - h.afterTokens;

/**
 * The results a new generation hides (`[gateway-manage-hysteresis]`): the operator's removals; the
 * previous generation's placeholders whose result is unchanged and not pinned; and, when that still
 * leaves the request over the high watermark, the oldest results outside the protected window, at
 * least `minResultTokens` large and larger than their placeholder, until it is at or under the low one.
 */
export function planHidden(input: PlanInput, o: ResolvedOptions): Plan {
  const hidden = new Map<string, HiddenResult>();
  let estimate = input.originalTokens;
  const hide = (r: CountedResult, h: HiddenResult) => {
    if (hidden.has(r.key)) return;
    hidden.set(r.key, h);
    estimate -= savedBy(h);
  };
  for (const r of input.results) {
    if (input.removals.has(r.key)) {
      const text = removedText(r);
      hide(r, { kind: 'removed', tool: r.tool, source: r.text, text, beforeTokens: r.tokens, afterTokens: input.countTokens(text), why: 'removed by the operator' });
      continue;
    }
    const before = input.previous.get(r.key);
    if (before?.kind === 'hidden' && before.source === r.text && !input.pins.has(r.key)) hide(r, before);
  }
  const high = o.highWatermark * o.contextWindow;
  const low = o.lowWatermark * o.contextWindow;
  if (estimate <= high) return { hidden, estimate, short: false };
  const keep = protectedResults(input.results, { currentTurnFrom: input.currentTurnFrom, keepLastResults: o.keepLastResults, keepLastTokens: o.keepLastTokens });
  const why = `older than the protected window (the last ${o.keepLastResults} results, ${o.keepLastTokens} tokens and the current turn); hidden at generation ${input.generation} to bring the request from ${Math.round(estimate)} tokens under ${Math.round(low)}`;
  for (let i = 0; i < input.results.length && estimate > low; i++) {
    const r = input.results[i]!;
    if (keep[i] || hidden.has(r.key) || input.pins.has(r.key) || r.tokens < o.minResultTokens) continue;
    const p = input.placeholderOf(r, input.generation);
    if (p.tokens >= r.tokens) continue;
    hide(r, { kind: 'hidden', tool: r.tool, source: r.text, text: p.text, beforeTokens: r.tokens, afterTokens: p.tokens, why });
  }
  return { hidden, estimate, short: estimate > low };
}

/** A fresh placeholder for `result`, counted. */
export function makePlaceholder(result: CountedResult, generation: number, countTokens: (text: string) => number): { text: string; tokens: number } {
  const text = placeholderText(result, generation, result.tokens);
  return { text, tokens: countTokens(text) };
}
