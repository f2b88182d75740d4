import { describe, expect, it } from 'vitest';
import { cacheHitRate } from '../../../../engine/metrics/cacheHitRate';

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
