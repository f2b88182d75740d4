import { describe, expect, it } from 'vitest';
import { buildTokens } from '../../../../engine/generations/buildTokens';

describe('[tokens-within-budget] a build\'s token figures', () => {
  it.each([
    [{ l0Tokens: 100, l1Tokens: 200, l2Tokens: 300 }, 1000, 50, 650, 0],
    [{ l0Tokens: 100, l1Tokens: 200, l2Tokens: 650 }, 1000, 50, 1000, 0],
    [{ l0Tokens: 100, l1Tokens: 900, l2Tokens: 0 }, 1000, 50, 1050, 50],
    [{ l0Tokens: 0, l1Tokens: 0, l2Tokens: 0 }, 10, 0, 0, 0],
  ])('[tokens-within-budget] [overflow-recorded] layers %o at budget %i with reserve %i: %i tokens, overflow %i', (state, budget, reserve, tokens, overflow) => {
    expect(buildTokens(state, budget, reserve)).toEqual({
      tokens,
      layerTokens: { L0: state.l0Tokens, L1: state.l1Tokens, L2: state.l2Tokens, L3: reserve },
      overflow,
    });
  });
});
