/** Token counts of one provider call or a sum of calls, as the provider reports them. */
export interface CacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Provider cache hit rate = CacheRead / (Input + CacheRead + CacheWrite); 0 when the denominator is
 * 0 (DESIGN.md "Metrics"; `[hit-rate-def]`). `input` is the uncached input, as Anthropic reports
 * it; callers normalise OpenAI's inclusive figure before calling. The one definition of the figure
 * (`[one-definition]`): every layer calls this, or {@link cacheHitRateOfPrompt}, which calls it.
 */
export function cacheHitRate(u: CacheUsage): number {
  const denominator = u.input + u.cacheRead + u.cacheWrite;
  return denominator > 0 ? u.cacheRead / denominator : 0;
}

/**
 * {@link cacheHitRate} of figures that carry the prompt's total instead of its parts: `promptTokens`
 * is Input + CacheRead + CacheWrite (the parts are disjoint), so only the read share is needed.
 */
export function cacheHitRateOfPrompt(cacheRead: number, promptTokens: number): number {
  return cacheHitRate({ input: promptTokens - cacheRead, cacheRead, cacheWrite: 0 });
}
