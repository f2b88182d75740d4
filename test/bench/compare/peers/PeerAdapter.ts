/**
 * The one signature every peer context-management library is driven through in the benchmark, so
 * Strata's strategies and its peers can be run side by side on the same recorded transcripts.
 *
 * Dev-only: these adapters call the peers' public APIs (devDependencies) and must never be imported
 * by engine/, electron/ or renderer/ code.
 */
import type { Message } from '../../../../engine/conversation/Message';
import { messageTokens } from '../../../../engine/conversation/messageTokens';
import type { Tokenizer } from '../../../../engine/tokens/Tokenizer';

export interface PeerAdapter {
  /** Short name for tables, e.g. `langchainTrim`. */
  readonly name: string;
  /** The package (with the exact version pinned in package.json) whose public API it calls; empty for the baseline. */
  readonly peer: string;
  /**
   * True when the peer promises that what it returns fits the budget as `conversationTokens` counts
   * it (our tokenizer, our per-message costing), whenever the budget holds the system prompt alone
   * (a peer that always sends the system prompt cannot do better). Tests check the budget only
   * where this is true.
   */
  readonly promisesBudget: boolean;
  /** What the peer does with the budget, in words (for reports). */
  readonly budgetBehaviour: string;
  /**
   * What the peer does with tool-call/result pairs, in words. The adapters never repair the peer's
   * output: orphaned results and unanswered calls are what the benchmark measures.
   */
  readonly toolPairs: string;
  /**
   * The messages the peer would send at this step, converted back to our message type and nothing
   * else: `conversation` is everything so far, the system prompt first; `budget` is in tokens of
   * `tokenizer`. Never changes `conversation`. Messages the peer keeps carry their original ids;
   * their content is what the peer left of it (a peer may strip tool calls from a message).
   */
  select(conversation: readonly Message[], budget: number, tokenizer: Tokenizer): Promise<Message[]>;
}

/** Tokens of `messages` as the ContextManager budgets them (per-message overhead, text, tool call ids, names and arguments). */
export function conversationTokens(messages: readonly Message[], tokenizer: Tokenizer): number {
  let total = 0;
  for (const m of messages) total += messageTokens(m, tokenizer);
  return total;
}
