import { describe, expect, it } from 'vitest';
import { tokens } from '../../../../../renderer/components/format';
import { costAxisDomain } from '../../../../../renderer/views/compare/CompareCharts';

/** Five evenly spaced ticks over a domain, as the chart asks for (`tickCount={5}`). */
const ticks = ([lo, hi]: [number, number]) => Array.from({ length: 5 }, (_, i) => lo + ((hi - lo) * i) / 4);

describe('the cost-against-recall chart\'s cost axis', () => {
  it('one point: the axis runs from 0 past it, so no two ticks print the same figure', () => {
    const d = costAxisDomain([3_858_112]);
    expect(d[0]).toBe(0);
    expect(d[1]).toBeGreaterThan(3_858_112);
    const labels = ticks(d).map(tokens);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('nearly equal points and no points still give distinct ticks; the dearest point is inside', () => {
    const xs = [3_858_112, 3_858_400, 3_859_000];
    const d = costAxisDomain(xs);
    expect(Math.max(...xs)).toBeLessThan(d[1]);
    expect(new Set(ticks(d).map(tokens)).size).toBe(5);
    expect(costAxisDomain([])).toEqual([0, 1]);
  });
});
