import { describe, expect, it } from 'vitest';
import { bucketSpan, bucketWidth, buildBucketData, overallBucketLimit } from '../../../../renderer/charts/timeBuckets';
import { toPoint } from '../../../../renderer/store/usage/usageSlice';
import { makeCall } from '../usageFixtures';

const MIN = 60_000;
const t0 = new Date(2026, 0, 5, 9).getTime();
/** A call of `agentId` at `at`, cache-model figures of record unless told otherwise. */
const call = (agentId: string, turn: number, at: number, over: Parameters<typeof makeCall>[2] = {}) => toPoint(makeCall(agentId, turn, { at, ...over }));

describe('bucketWidth', () => {
  it('is the narrowest round width that fits the span into the limit', () => {
    expect(bucketWidth(t0, t0 + 50 * 1000)).toBe(1000);
    expect(bucketWidth(t0, t0 + 3 * 60 * MIN)).toBe(2 * MIN);
    expect(bucketWidth(t0, t0 + 3 * 60 * MIN, 40)).toBe(5 * MIN);
    expect(bucketWidth(t0, t0)).toBe(1000);
  });

  it('says its span for the captions', () => {
    expect([bucketSpan(1000), bucketSpan(30_000), bucketSpan(2 * MIN), bucketSpan(60 * MIN), bucketSpan(180 * MIN)]).toEqual(['1 s', '30 s', '2 min', '1 h', '3 h']);
  });
});

describe('buildBucketData', () => {
  it('[one-definition] takes the hit rate of a slice’s summed tokens and weights reuse by prompt bytes; a recorded call without a prompt stays out of reuse', () => {
    const points = [
      call('a', 1, t0 + 1000, { usage: { input: 100, cacheRead: 900, cacheWrite: 0, output: 1 }, hitRate: 0.9, prefixReuse: 1, reuseBytes: { reused: 1000, prompt: 1000 } }),
      call('b', 1, t0 + 2000, { usage: { input: 2000, cacheRead: 0, cacheWrite: 1000, output: 1 }, hitRate: 0, prefixReuse: 0.4, reuseBytes: { reused: 1200, prompt: 3000 } }),
      call('c', 1, t0 + 3000, { modeled: false, usage: { input: 50, cacheRead: 50, cacheWrite: 0, output: 1 }, hitRate: 0.5, prefixReuse: null, reuseBytes: null }),
    ];
    const d = buildBucketData(points, {}, {}, 1);
    expect(d.rates).toHaveLength(1);
    const [r] = d.rates;
    // Model: 900 read of 4000 prompt tokens (not the mean of 0.9 and 0).
    expect(r?.hitModel).toBeCloseTo(900 / 4000);
    expect(r?.hitProvider).toBe(0.5);
    // Reuse: (1000 + 1200) reused of 4000 prompt bytes; c's prompt is not known.
    expect(r?.reuse).toBeCloseTo((1000 + 1200) / 4000);
    // Bytes, not tokens, weigh: the same calls with other byte counts give another reuse.
    const wide = [points[0]!, { ...points[1]!, reuseBytes: { reused: 1200, prompt: 30_000 } }];
    expect(buildBucketData(wide, {}, {}, 1).rates[0]?.reuse).toBeCloseTo(2200 / 31_000);
    expect(r).toMatchObject({ calls: 3, agents: 3 });
    // Tokens: the mean per call of each source's calls of record.
    expect(d.tokens[0]).toMatchObject({ readM: 450, writeM: 500, uncachedM: 1050, readP: 50, writeP: 0, uncachedP: 50 });
    expect(d.hasProvider && d.hasModel).toBe(true);
  });

  it('puts each call in the slice of its time, slices on round boundaries, an empty slice as a gap', () => {
    const points = [call('a', 1, t0 + 10_000), call('b', 1, t0 + 20_000), call('a', 2, t0 + 6 * MIN + 5_000)];
    const d = buildBucketData(points, {}, {}, 5);
    expect(d.width).toBe(2 * MIN);
    expect(d.rates.map((r) => [r.from - t0, r.calls, r.agents])).toEqual([
      [0, 2, 2],
      [2 * MIN, 0, 0],
      [4 * MIN, 0, 0],
      [6 * MIN, 1, 1],
    ]);
    expect(d.rates[0]?.at).toBe(t0 + MIN);
    expect(d.rates[1]).toMatchObject({ hitModel: null, reuse: null });
    expect(d.tokens[1]).toMatchObject({ readM: null, writeM: null, uncachedM: null });
  });

  it('never draws more points than the limit, however many calls', () => {
    const points = Array.from({ length: 500 }, (_, i) => call(`w${i % 200}`, i, t0 + i * 21_600));
    const d = buildBucketData(points, {}, {});
    expect(d.rates.length).toBeLessThanOrEqual(overallBucketLimit);
    expect(d.rates.reduce((n, r) => n + r.calls, 0)).toBe(500);
  });

  it('places the markers of every agent in view and is empty without calls', () => {
    const a = [call('a', 1, t0 + 1000), call('a', 2, t0 + 2000, { generation: 2 })];
    const d = buildBucketData(a, { a }, { a: [{ agentId: 'a', generation: 2, kind: 'refresh', reason: 'context limit' }] });
    expect(d.markers).toEqual([{ at: t0 + 2000, agentId: 'a', generation: 2, kind: 'refresh', reason: 'context limit' }]);
    expect(buildBucketData([], {}, {})).toMatchObject({ rates: [], tokens: [], markers: [] });
  });
});
