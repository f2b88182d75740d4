import { commonPrefixBytes, utf8Length } from '../text/utf8';

/**
 * Prefix reuse, defined once (`[one-definition]`): the share of a prompt's UTF-8 bytes that it
 * shares, as a prefix, with the agent's previous prompt. Every layer calls these functions.
 */

/** Bytes of a prompt and of its prefix shared with the agent's previous prompt (0 for the first). */
export interface ReuseBytes {
  reusedBytes: number;
  promptBytes: number;
}

/** reusedBytes / promptBytes; 0 when there are no bytes. The one division behind every reuse figure. */
export function reuseRatio(reusedBytes: number, promptBytes: number): number {
  return promptBytes > 0 ? reusedBytes / promptBytes : 0;
}

/**
 * Prefix reuse of one call = bytes of the longest common prefix with the agent's previous prompt /
 * bytes of this prompt, both in UTF-8 (DESIGN.md "Metrics"; `[prefix-reuse-def]`). It is 0 for an
 * agent's first call (no previous prompt) and for an empty prompt. Providers cache by prefix, so
 * this is the share of the prompt a prompt cache could serve.
 */
export function prefixReuse(previous: string | undefined, current: string): number {
  if (previous === undefined) return 0;
  return reuseRatio(commonPrefixBytes(previous, current), utf8Length(current));
}

/**
 * An agent's reuse from its calls' byte counts, in order: the sum of common-prefix bytes over the
 * sum of prompt bytes of calls 2..n (`[agent-reuse-def]`). The first call has no previous prompt
 * and is left out whatever its figures say.
 */
export function agentReuseOfCalls(calls: readonly ReuseBytes[]): number {
  let reused = 0;
  let total = 0;
  for (let i = 1; i < calls.length; i++) {
    reused += calls[i]!.reusedBytes;
    total += calls[i]!.promptBytes;
  }
  return reuseRatio(reused, total);
}

/**
 * An agent's reuse = the byte-weighted mean of `prefixReuse` over its calls after the first
 * (DESIGN.md "Metrics"; `[agent-reuse-def]`): the sum of common-prefix bytes over the sum of prompt
 * bytes of calls 2..n, so a long prompt weighs more than a short one, as it does on the bill. 0
 * with fewer than two calls or when calls 2..n are all empty.
 */
export function agentReuse(prompts: readonly string[]): number {
  return agentReuseOfCalls(prompts.map((p, i) => ({ reusedBytes: i > 0 ? commonPrefixBytes(prompts[i - 1]!, p) : 0, promptBytes: utf8Length(p) })));
}
