import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../../engine/tokens/estimateTokens';

describe('estimateTokens = ceil(UTF-8 bytes / 4)', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['世界', 2],
    ['😀😀', 2],
    ['x'.repeat(1200), 300],
    ['x'.repeat(1201), 301],
  ])('%j -> %d', (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });
});
