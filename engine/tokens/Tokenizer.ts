/**
 * The port through which the engine counts tokens. Budgets, packing and utilization are all in
 * these units, so one engine run uses one tokenizer throughout; swapping it (a real BPE, a fake in
 * tests) changes counts but never the packing rules.
 */
export interface Tokenizer {
  /** Name of the encoding, e.g. `o200k_base`; recorded with figures so they can be compared. */
  readonly encoding: string;
  /**
   * Tokens in `text` as plain text: deterministic, never throws, and special-token markers such
   * as `<|endoftext|>` are counted as the ordinary characters they are written with.
   */
  count(text: string): number;
}
