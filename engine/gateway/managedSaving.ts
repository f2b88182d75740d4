import { costUsd, listPriceOf, type BilledTokens } from '../pricing/costUsd';
import type { GatewayUsage, OriginalPrefix } from './types';

/**
 * What manage mode saved on one call, estimated against a counterfactual (`[gateway-host-savings]`):
 * what the client's ORIGINAL request would have been billed had it gone upstream unchanged, as in
 * observe mode, less what the rewritten request was billed. Pure.
 *
 * The model, from what the gateway knows of the call:
 * - Units: the gateway counts o200k tokens of its own serialization, the provider bills its own.
 *   Every count is scaled by this very call's ratio `scale` = billed prompt (uncached + cache read
 *   + cache write) / o200k of the rewritten request, so the original's prompt is
 *   `P = originalTokens × scale`.
 * - Cache read: what observe mode's cache would have held of the original, judged by the original
 *   against the thread's previous original (`cacheBreak` as observe mode measures it): `appended`
 *   with the previous original's o200k known reads all of it (`previousTokens × scale`); a thread's
 *   `first call` reads what this call read (the same prefix was cached for both); a changed
 *   `model` reads nothing; anything else (a divergence, `unchanged`, a strict prefix, an appended
 *   call whose previous original the gateway did not count) reads the unchanged bytes' share of
 *   `P` (`unchangedBytes / bytes`), the most a prefix cache could serve, so the saving errs low.
 * - The rest of `P` is billed as this call's own non-read tokens were, in the same proportions of
 *   uncached input, 5-minute and 1-hour cache writes (the client's breakpoints stand in both
 *   requests); as uncached input when this call read all its prompt.
 * - Output is the same in both. Both sides are priced with `costUsd` at `listPriceOf` the model.
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

/** The o200k tokens (unscaled) of the original's prefix observe mode's cache would have served, or the provider's read itself for a thread's first call. */
function readOf(o: OriginalPrefix, originalTokens: number, scale: number, billedRead: number): number {
  const at = o.cacheBreak.at;
  if (at === 'first call') return billedRead;
  if (at === 'model') return 0;
  if (at === 'appended' && o.previousTokens !== undefined) return o.previousTokens * scale;
  const share = o.bytes > 0 ? Math.min(1, o.cacheBreak.unchangedBytes / o.bytes) : 0;
  return share * originalTokens * scale;
}

/** The counterfactual of one managed call and the saving against what was billed. */
export function managedSaving(i: SavingInput): ManagedSaving {
  const u = i.usage;
  const billedPrompt = u.input + u.cacheRead + u.cacheWrite;
  const scale = i.rewrittenTokens > 0 ? billedPrompt / i.rewrittenTokens : 1;
  const prompt = Math.max(billedPrompt, i.originalTokens * scale);
  const read = Math.min(prompt, Math.max(0, readOf(i.original, i.originalTokens, scale, u.cacheRead)));
  const rest = prompt - read;
  const notRead = billedPrompt - u.cacheRead;
  const share = (part: number) => (notRead > 0 ? (rest * part) / notRead : 0);
  const counterfactual: BilledTokens =
    notRead > 0
      ? { input: share(u.input), cacheRead: read, cacheWrite: share(u.cacheWrite), cacheWrite1h: share(u.cacheWrite1h), output: u.output }
      : { input: rest, cacheRead: read, cacheWrite: 0, cacheWrite1h: 0, output: u.output };
  const tokens = Math.round(prompt - billedPrompt);
  const price = listPriceOf(i.model);
  if (!price) return { tokens, usd: 0, counterfactual };
  return { tokens, usd: costUsd(counterfactual, price.perMTok).prompt - costUsd(u, price.perMTok).prompt, counterfactual };
}
