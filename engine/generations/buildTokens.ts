import type { Layer } from './Generation';
import type { GenerationState } from './GenerationState';

/** A build's token figures as its generation records them. */
export interface BuildTokens {
  /** Every layer: L0 + L1 + L2 content and the L3 reserve. */
  tokens: number;
  layerTokens: Record<Layer, number>;
  /** Tokens over the budget, 0 when the prompt fits. */
  overflow: number;
}

/**
 * The figures of one build (`[tokens-within-budget]`, `[overflow-recorded]`): the layers' counted
 * content, L3 at its reserve (its widest status line, so the prompt sent never outgrows the count),
 * and what the whole exceeds the budget by (only pinned or mandatory content makes it exceed).
 */
export function buildTokens(state: Pick<GenerationState, 'l0Tokens' | 'l1Tokens' | 'l2Tokens'>, budget: number, reserve: number): BuildTokens {
  const tokens = state.l0Tokens + state.l1Tokens + state.l2Tokens + reserve;
  return {
    tokens,
    layerTokens: { L0: state.l0Tokens, L1: state.l1Tokens, L2: state.l2Tokens, L3: reserve },
    overflow: Math.max(0, tokens - budget),
  };
}
