import { describe, expect, it } from 'vitest';
import { buildChartData, markerTime, overallMarkerLimit } from '../../../../../renderer/store/usage/usageSelectors';
import { toPoint, type GenerationMarker } from '../../../../../renderer/store/usage/usageSlice';
import { makeCall } from '../../usageFixtures';

const marker = (agentId: string, generation: number, kind: GenerationMarker['kind'] = 'refresh'): GenerationMarker => ({ agentId, generation, kind, reason: 'context limit' });

describe('markerTime', () => {
  const points = [1, 2, 3, 4].map((t) => toPoint(makeCall('a', t, { generation: t < 3 ? 1 : 2 })));
  it('puts a boundary at the first call of the new generation', () => {
    expect(markerTime(points, marker('a', 2))).toBe(points[2]?.at);
  });
  it('puts a boundary not yet followed by a call after the newest call', () => {
    expect(markerTime(points, marker('a', 3))).toBe(points[3]?.at);
  });
  it('drops a boundary before the window', () => {
    expect(markerTime(points.slice(2), marker('a', 1))).toBeUndefined();
    expect(markerTime([], marker('a', 2))).toBeUndefined();
  });
});

describe('buildChartData', () => {
  it('splits provider figures from cache-model figures', () => {
    const provider = toPoint(makeCall('a', 1, { modeled: false, hitRate: 0.5, usage: { input: 50, cacheRead: 50, cacheWrite: 0, output: 1 }, modeledUsage: { input: 25, cacheRead: 75, cacheWrite: 0, output: 1 } }));
    const modeled = toPoint(makeCall('a', 2));
    const d = buildChartData([provider, modeled], { a: [provider, modeled] }, {}, ['a']);
    expect(d.hasProvider).toBe(true);
    expect(d.hasModel).toBe(true);
    expect(d.rates.map((r) => [r.hitProvider, r.hitModel, r.reuse])).toEqual([
      [0.5, 0.75, 0.9],
      [null, 0.8, 0.9],
    ]);
    expect(d.tokens[0]).toMatchObject({ readP: 50, writeP: 0, uncachedP: 50, readM: null });
    expect(d.tokens[1]).toMatchObject({ readP: null, readM: 800, writeM: 100, uncachedM: 100 });
  });

  it('places only the markers of the agents in view, within the time window', () => {
    const a = [1, 2, 3].map((t) => toPoint(makeCall('a', t, { generation: t === 3 ? 2 : 1 })));
    const b = [4, 5].map((t) => toPoint(makeCall('b', t, { generation: 3 })));
    const markers = { a: [marker('a', 2)], b: [marker('b', 2, 'generation')] };
    expect(buildChartData(a, { a, b }, markers, ['a']).markers).toEqual([{ at: a[2]?.at, agentId: 'a', generation: 2, kind: 'refresh', reason: 'context limit' }]);
    // b's generation 2 ended before b's first call in view: no marker for it.
    expect(buildChartData([...a, ...b], { a, b }, markers, 'all').markers.map((m) => m.agentId)).toEqual(['a']);
  });

  it('caps the overall markers to the newest', () => {
    const agents = Array.from({ length: overallMarkerLimit + 10 }, (_, i) => `w${i}`);
    const byAgent = Object.fromEntries(agents.map((id, i) => [id, [toPoint(makeCall(id, i + 1, { generation: 2 }))]]));
    const markers = Object.fromEntries(agents.map((id) => [id, [marker(id, 2)]]));
    const all = agents.map((id) => byAgent[id]![0]!);
    const d = buildChartData(all, byAgent, markers, 'all');
    expect(d.markers).toHaveLength(overallMarkerLimit);
    expect(d.markers.at(-1)?.agentId).toBe(agents.at(-1));
  });
});
