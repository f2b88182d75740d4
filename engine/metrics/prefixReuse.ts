import { commonPrefixBytes, utf8Length } from '../text/utf8';

/**
 * Prefix reuse of one call = bytes of the longest common prefix with the agent's previous prompt /
 * bytes of this prompt, both in UTF-8 (DESIGN.md "Metrics"; `[prefix-reuse-def]`). It is 0 for an
 * agent's first call (no previous prompt) and for an empty prompt. Providers cache by prefix, so
 * this is the share of the prompt a prompt cache could serve.
 */
export function prefixReuse(previous: string | undefined, current: string): number {
  if (previous === undefined) return 0;
  const bytes = utf8Length(current);
  return bytes > 0 ? commonPrefixBytes(previous, current) / bytes : 0;
}

/**
 * An agent's reuse = the byte-weighted mean of `prefixReuse` over its calls after the first
 * (DESIGN.md "Metrics"; `[agent-reuse-def]`): the sum of common-prefix bytes over the sum of prompt
 * bytes of calls 2..n, so a long prompt weighs more than a short one, as it does on the bill. 0
 * with fewer than two calls or when calls 2..n are all empty.
 */
export function agentReuse(prompts: readonly string[]): number {
  let reused = 0;
  let total = 0;
  for (let i = 1; i < prompts.length; i++) {
    const current = prompts[i]!;
    reused += commonPrefixBytes(prompts[i - 1]!, current);
    total += utf8Length(current);
  }
  return total > 0 ? reused / total : 0;
}
