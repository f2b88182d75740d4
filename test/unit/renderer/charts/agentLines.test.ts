import { describe, expect, it } from 'vitest';
import { buildAgentLines, lineKey } from '../../../../renderer/charts/agentLines';
import type { CallPoint } from '../../../../renderer/store/usage/usageSlice';

const call = (agentId: string, at: number, cacheRead: number, input: number): CallPoint => ({
  agentId, turn: 1, generation: 1, at, usage: { input, cacheRead, cacheWrite: 0, output: 0 }, modeled: true, modeledUsage: undefined, hitRate: 0, prefixReuse: null, reuseBytes: null,
});

describe('buildAgentLines', () => {
  it('gives each agent its own hit rate per slice instead of the mean', () => {
    const t0 = Date.parse('2026-01-01T12:00:00.000Z');
    const data = buildAgentLines([call('a', t0, 90, 10), call('b', t0 + 100, 0, 100), call('a', t0 + 5000, 50, 50)], null);
    expect(data.agents).toEqual(['a', 'b']);
    const first = data.rows[0];
    expect(first?.[lineKey('a')]).toBeCloseTo(0.9);
    expect(first?.[lineKey('b')]).toBe(0);
    // b has no call in a later slice: a gap, not a zero.
    expect(data.rows.at(-1)?.[lineKey('b')]).toBeNull();
    expect(data.rows.at(-1)?.[lineKey('a')]).toBeCloseTo(0.5);
  });

  it('draws at most the limit, the selected agent first, and counts the rest', () => {
    const t0 = Date.parse('2026-01-01T12:00:00.000Z');
    const points = ['a', 'a', 'b', 'b', 'c'].map((id, i) => call(id, t0 + i, 1, 1));
    const data = buildAgentLines(points, 'c', 2);
    expect(data.agents).toEqual(['c', 'a']);
    expect(data.omitted).toBe(1);
  });
});
