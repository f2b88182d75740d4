/**
 * Head/tail clipping of an oversized item (spec "Prompt cache layers": Scope "clips oversized
 * non-mandatory items to head/tail excerpts with a token marker").
 */

/** Measures text in the caller's tokenizer; the engine stays free of any particular one. */
export type CountTokens = (text: string) => number;

/** A clipped text: `tokens` is `countTokens(text)`, `clippedTokens` the tokens of the removed middle. */
export interface Clipped {
  text: string;
  tokens: number;
  clippedTokens: number;
}

const HEAD_SHARE = 0.6;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Moves a cut index off the middle of a surrogate pair (backwards), so no half character is kept. */
function safeCut(text: string, at: number): number {
  return at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at)) ? at - 1 : at;
}

/**
 * The end index of the longest prefix of `text` within `budget` tokens, cut back to a line
 * boundary when that keeps at least half of it, else at a character boundary (never inside a
 * surrogate pair). Binary search: assumes a counter that grows with the text, as tokenizers do.
 */
export function fitPrefix(text: string, budget: number, countTokens: CountTokens): number {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (countTokens(text.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const end = safeCut(text, lo);
  if (end === text.length) return end;
  const newline = text.lastIndexOf('\n', end - 1);
  return newline >= 0 && newline >= end / 2 ? newline : end;
}

/** The start index of the longest suffix within `budget`; the mirror of {@link fitPrefix}. */
function fitSuffix(text: string, budget: number, countTokens: CountTokens): number {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (countTokens(text.slice(mid)) <= budget) hi = mid;
    else lo = mid + 1;
  }
  const start = lo < text.length && isLow(text.charCodeAt(lo)) && lo > 0 && isHigh(text.charCodeAt(lo - 1)) ? lo + 1 : lo;
  if (start === 0) return start;
  const newline = text.indexOf('\n', start);
  return newline >= 0 && text.length - (newline + 1) >= (text.length - start) / 2 ? newline + 1 : start;
}

/** The marker between head and tail; its number is the tokens removed. */
const clipMarker = (clippedTokens: number) => `\n[… ${clippedTokens} tokens clipped …]\n`;

/**
 * Keep a head excerpt and a tail excerpt (about 60/40 by tokens) of `text` joined by
 * {@link clipMarker}, so both the framing (what the item is) and the outcome (how it ended) survive.
 * Invariant: `tokens <= targetTokens` whenever `targetTokens >= countTokens('')`; the text is
 * returned unchanged with `clippedTokens` 0 when it already fits. When not even the marker fits,
 * the result is the longest fitting prefix, without a marker.
 */
export function clipHeadTail(text: string, targetTokens: number, countTokens: CountTokens): Clipped {
  const total = countTokens(text);
  if (total <= targetTokens) return { text, tokens: total, clippedTokens: 0 };

  // Budget the marker at its widest number; shrink further if the tokenizer merges across joins.
  const markerTokens = countTokens(clipMarker(total));
  let slack = 0;
  while (targetTokens - markerTokens - slack > 0) {
    const room = targetTokens - markerTokens - slack;
    const headBudget = Math.floor(room * HEAD_SHARE);
    const headEnd = fitPrefix(text, headBudget, countTokens);
    const tailStart = Math.max(headEnd, fitSuffix(text, room - headBudget, countTokens));
    const clippedTokens = countTokens(text.slice(headEnd, tailStart));
    const out = text.slice(0, headEnd) + clipMarker(clippedTokens) + text.slice(tailStart);
    const tokens = countTokens(out);
    if (tokens <= targetTokens) return { text: out, tokens, clippedTokens };
    slack += Math.max(1, tokens - targetTokens);
  }
  const prefix = text.slice(0, fitPrefix(text, targetTokens, countTokens));
  const tokens = countTokens(prefix);
  return tokens <= targetTokens ? { text: prefix, tokens, clippedTokens: total - tokens } : { text: '', tokens: countTokens(''), clippedTokens: total };
}
