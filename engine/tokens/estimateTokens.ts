import { utf8Length } from '../text/utf8';

/**
 * The spec's cheap `Tokens` estimate: ceil(UTF-8 bytes / 4), 0 for ''. It is for caps that must
 * hold without a tokenizer (the 300-token / 1200-byte recall cap, excerpt sizes), never for
 * budgets or utilization, which use a `Tokenizer`. On sample text it read English prose about 1.5x
 * o200k's count, code and JSON about 0.75x, and long whitespace runs many times too high.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 4);
}
