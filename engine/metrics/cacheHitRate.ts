/** Token counts of one provider call or a sum of calls, as the provider reports them. */
export interface CacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Provider cache hit rate = CacheRead / (Input + CacheRead + CacheWrite); 0 when the denominator is
 * 0 (DESIGN.md "Metrics"; `[hit-rate-def]`). `input` is the uncached input, as Anthropic reports
 * it; callers normalise OpenAI's inclusive figure before calling.
 */
export function cacheHitRate(u: CacheUsage): number {
  const denominator = u.input + u.cacheRead + u.cacheWrite;
  return denominator > 0 ? u.cacheRead / denominator : 0;
}
