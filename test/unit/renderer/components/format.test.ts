import { describe, expect, it } from 'vitest';
import { percent, tokens } from '../../../../renderer/components/format';

describe('percent', () => {
  it.each([
    [0, '0%'],
    [0.934, '93%'],
    [0.5, '50%'],
    [1, '100%'],
    [1.25, '125%'],
  ])('%d -> %s', (ratio, expected) => {
    expect(percent(ratio)).toBe(expected);
  });
});

describe('tokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [999, '999'],
    [1_000, '1k'],
    [1_240, '1.2k'],
    [9_400, '9.4k'],
    [10_000, '10k'],
    [12_600, '13k'],
    [640_000, '640k'],
    [1_000_000, '1M'],
    [1_250_000, '1.25M'],
    [1_500_000, '1.5M'],
    [20_000_000, '20M'],
  ])('%d -> %s', (n, expected) => {
    expect(tokens(n)).toBe(expected);
  });

  // Rounding must not leave a figure like "1000k" on the smaller unit's branch.
  it.each([
    [9_960, '10k'],
    [999_500, '1M'],
  ])('%d rounds up into the next unit -> %s', (n, expected) => {
    expect(tokens(n)).toBe(expected);
  });
});
