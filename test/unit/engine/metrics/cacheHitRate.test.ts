import { describe, expect, it } from 'vitest';
import { cacheHitRate, cacheHitRateOfPrompt } from '../../../../engine/metrics/cacheHitRate';

describe('[hit-rate-def] cacheHitRate = CacheRead / (Input + CacheRead + CacheWrite)', () => {
  it.each([
    [{ input: 0, cacheRead: 0, cacheWrite: 0 }, 0],
    [{ input: 100, cacheRead: 0, cacheWrite: 0 }, 0],
    [{ input: 0, cacheRead: 100, cacheWrite: 0 }, 1],
    [{ input: 10, cacheRead: 80, cacheWrite: 10 }, 0.8],
    [{ input: 1, cacheRead: 1, cacheWrite: 2 }, 0.25],
  ])('%j -> %d', (usage, expected) => {
    expect(cacheHitRate(usage)).toBeCloseTo(expected, 12);
  });
});

describe('[hit-rate-def] cacheHitRateOfPrompt: the same rate from a prompt total (Input + CacheRead + CacheWrite)', () => {
  it.each([
    [0, 0, 0],
    [0, 100, 0],
    [100, 100, 1],
    [80, 100, 0.8],
    [250, 1000, 0.25],
  ])('%d read of %d prompt tokens -> %d', (read, prompt, expected) => {
    expect(cacheHitRateOfPrompt(read, prompt)).toBeCloseTo(expected, 12);
  });

  it('agrees with cacheHitRate on every split of the same prompt', () => {
    for (const [input, cacheRead, cacheWrite] of [[10, 80, 10], [0, 5, 95], [7, 0, 3], [1, 1, 2]] as const) {
      expect(cacheHitRateOfPrompt(cacheRead, input + cacheRead + cacheWrite)).toBe(cacheHitRate({ input, cacheRead, cacheWrite }));
    }
  });
});
