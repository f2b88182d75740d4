import { costUsd, listPriceOf, type BilledTokens } from '../pricing/costUsd';
import type { GatewayUsage, OriginalPrefix } from './types';

/**
 * What manage mode saved on one call, estimated against a counterfactual (`[gateway-host-savings]`):
 * what the client's ORIGINAL request would have been billed had it gone upstream unchanged, as in
 * observe mode, less what the rewritten request was billed. Pure.
 *
 * The model, from what the gateway knows of the call:
 * - Units. The gateway counts o200k tokens of a request's JSON; the provider bills its own tokens of
 *   the prompt it reads. `scale` = this call's billed prompt (uncached + cache read + cache write)
 *   over the o200k of the rewritten request. That ratio mixes two things: the tokenizers' ratio on
 *   text, and the JSON framing of every entry, which the gateway counts and the provider does not
 *   bill as such. What the estimate converts is text (the hidden results' content, the client's new
 *   tool call and result), so it converts at `unit` = max(1, scale): a scale under 1 is framing, not
 *   cheaper text. Measured with the real clients through the scripted upstream (which bills o200k
 *   of the text): the billed and estimated counts differ by the same number of tokens before and
 *   after a rewrite, not by the same ratio, and a rewritten request's scale falls to about 0.73.
 *   The original's prompt is `P` = billed prompt + (originalTokens - rewrittenTokens) × unit.
 * - New tokens `N`, the part of `P` observe mode's cache would not have held. When the request
 *   sent upstream appended the previous one sent and the original appended the previous original
 *   (every call inside a generation, and a boundary that changed nothing already sent), the client's
 *   new entries went up verbatim in both: `N` is what this call billed beyond its cache read.
 *   Otherwise it is judged by the original against the thread's previous original (`cacheBreak` as
 *   observe mode measures it): `appended` with the previous original's o200k known adds
 *   (originalTokens - previousTokens) × unit; a thread's `first call` reads what this call read
 *   (the same prefix was cached for both); a changed `model` reads nothing; anything else (a
 *   divergence, `unchanged`, a strict prefix, an appended call whose previous original the gateway
 *   did not count) reads the unchanged bytes' share of `P` (`unchangedBytes / bytes`), the most a
 *   prefix cache could serve, so the saving errs low.
 * - The cache read is `P - N`; `N` is billed as this call's own non-read tokens were, in the same
 *   proportions of uncached input, 5-minute and 1-hour cache writes (the client's breakpoints stand
 *   in both requests), or as uncached input when this call read all its prompt. Output is the same
 *   in both. Both sides are priced with `costUsd` at `listPriceOf` the model.
 *
 * So a call inside a generation saves the cache reads of the tokens its generation hid, and a
 * generation boundary, where the rewritten prompt is written to the cache again while the original
 * would have been read from it, costs its extra writes: its saving may be negative. Tokens saved
 * are `P` less the billed prompt (never negative: a rewrite only makes a request smaller).
 */

export interface SavingInput {
  model: string;
  /** What the provider billed for the rewritten request. */
  usage: GatewayUsage;
  /** o200k tokens of the original and of the rewritten request. */
  originalTokens: number;
  rewrittenTokens: number;
  /** Where the request sent upstream broke the thread's cache against the previous one sent (`GatewayCall.cacheBreak.at`). */
  sentCacheBreak: string;
  original: OriginalPrefix;
}

export interface ManagedSaving {
  /** Billed prompt tokens the rewrite kept from being billed (provider units, rounded). */
  tokens: number;
  /** US dollars: the counterfactual's prompt cost less the billed prompt cost; 0 without a list price. */
  usd: number;
  /** What the original would have been billed (fractional tokens: scaled estimates). */
  counterfactual: BilledTokens;
}

/** The tokens of `prompt` observe mode's cache would not have held (provider units), judged by the original against the previous original. */
function newOfOriginal(i: SavingInput, prompt: number, unit: number): number {
  const o = i.original;
  const at = o.cacheBreak.at;
  if (at === 'first call') return prompt - i.usage.cacheRead;
  if (at === 'model') return prompt;
  if (at === 'appended' && o.previousTokens !== undefined) return Math.max(0, i.originalTokens - o.previousTokens) * unit;
  const share = o.bytes > 0 ? Math.min(1, o.cacheBreak.unchangedBytes / o.bytes) : 0;
  return prompt * (1 - share);
}

/** The counterfactual of one managed call and the saving against what was billed. */
export function managedSaving(i: SavingInput): ManagedSaving {
  const u = i.usage;
  const billedPrompt = u.input + u.cacheRead + u.cacheWrite;
  const notRead = billedPrompt - u.cacheRead;
  const unit = Math.max(1, i.rewrittenTokens > 0 ? billedPrompt / i.rewrittenTokens : 1);
  const prompt = billedPrompt + Math.max(0, i.originalTokens - i.rewrittenTokens) * unit;
  const sameNewEntries = i.sentCacheBreak === 'appended' && i.original.cacheBreak.at === 'appended';
  const fresh = Math.min(prompt, Math.max(0, sameNewEntries ? notRead : newOfOriginal(i, prompt, unit)));
  const share = (part: number) => (fresh * part) / notRead;
  const counterfactual: BilledTokens =
    notRead > 0
      ? { input: share(u.input), cacheRead: prompt - fresh, cacheWrite: share(u.cacheWrite), cacheWrite1h: share(u.cacheWrite1h), output: u.output }
      : { input: fresh, cacheRead: prompt - fresh, cacheWrite: 0, cacheWrite1h: 0, output: u.output };
  const tokens = Math.round(prompt - billedPrompt);
  const price = listPriceOf(i.model);
  if (!price) return { tokens, usd: 0, counterfactual };
  return { tokens, usd: costUsd(counterfactual, price.perMTok).prompt - costUsd(u, price.perMTok).prompt, counterfactual };
}
