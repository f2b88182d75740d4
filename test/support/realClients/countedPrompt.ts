import { createHash } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { PromptPieces } from './promptPieces';

/**
 * A request's prompt as the harness's server counts it: o200k_base tokens (js-tiktoken, each
 * piece encoded on its own, special-token text counted as plain characters) and a hash chain over
 * the pieces, so two prompts share a prefix of `k` pieces exactly when their chains agree at `k`.
 */
export interface CountedPrompt {
  /** Tokens of each piece. */
  tokens: number[];
  /** `cumulative[k]` = tokens of the first `k` pieces (`cumulative[0]` = 0). */
  cumulative: number[];
  /** `chain[k]` identifies the first `k` pieces (kind and text of each). */
  chain: string[];
  total: number;
}

let encoder: Tiktoken | undefined;
const memo = new Map<string, number>();

/** o200k_base tokens of `text` (memoized: the same system prompt and tools come back on every call). */
export function o200kTokens(text: string): number {
  let n = memo.get(text);
  if (n === undefined) {
    encoder ??= new Tiktoken(o200kBase);
    n = encoder.encode(text, [], []).length;
    if (memo.size > 50_000) memo.clear();
    memo.set(text, n);
  }
  return n;
}

export function countPrompt(prompt: PromptPieces): CountedPrompt {
  const tokens: number[] = [];
  const cumulative = [0];
  const chain = [''];
  let total = 0;
  for (const piece of prompt.pieces) {
    const n = o200kTokens(piece.text);
    tokens.push(n);
    total += n;
    cumulative.push(total);
    chain.push(createHash('sha256').update(chain[chain.length - 1]!).update('\u0000').update(piece.kind).update('\u0000').update(piece.text).digest('hex'));
  }
  return { tokens, cumulative, chain, total };
}
