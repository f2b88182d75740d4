import type { CacheTtl, PromptSegment } from '../../../../../engine/providers/cacheModel';

export const MIN = 60_000;
export const SEC = 1_000;

/** One segment. */
export function seg(id: string, tokens: number, cacheControl?: CacheTtl): PromptSegment {
  return cacheControl ? { id, tokens, cacheControl } : { id, tokens };
}

/** `n` distinct blocks `${prefix}0 … ${prefix}${n-1}` of `tokens` each. */
export function blocks(prefix: string, n: number, tokens: number): PromptSegment[] {
  return Array.from({ length: n }, (_, i) => seg(`${prefix}${i}`, tokens));
}

/** `segments` with a breakpoint on index `i` (replacing any there). */
export function withBreakpoint(segments: readonly PromptSegment[], i: number, ttl: CacheTtl = '5m'): PromptSegment[] {
  return segments.map((s, j) => (j === i ? { id: s.id, tokens: s.tokens, cacheControl: ttl } : s));
}

/** The usage figures a test compares (the provider-reported four). */
export function figures(u: { input: number; cacheRead: number; cacheWrite: number }): { input: number; cacheRead: number; cacheWrite: number } {
  return { input: u.input, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite };
}
