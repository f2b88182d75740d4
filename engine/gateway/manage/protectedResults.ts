/**
 * The protected recent window (`[gateway-manage-window]`): which results of a request may never be
 * hidden. A result is protected when it belongs to the current turn (the model has not seen it
 * yet), is among the newest `keepLastResults`, or lies within the newest `keepLastTokens` tokens
 * of results (counted from the newest back, the result that crosses the line not included).
 */
export function protectedResults(
  results: readonly { at: number; tokens: number }[],
  window: { currentTurnFrom: number; keepLastResults: number; keepLastTokens: number },
): boolean[] {
  const out = new Array<boolean>(results.length).fill(false);
  let tokens = 0;
  for (let i = results.length - 1, rank = 0; i >= 0; i--, rank++) {
    const r = results[i]!;
    tokens += r.tokens;
    out[i] = r.at >= window.currentTurnFrom || rank < window.keepLastResults || tokens <= window.keepLastTokens;
  }
  return out;
}
