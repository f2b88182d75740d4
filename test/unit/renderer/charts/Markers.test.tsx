import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useMarkerLines } from '../../../../renderer/charts/Markers';
import type { ChartMarker } from '../../../../renderer/store/usageSelectors';

const marker = (agentId: string, generation: number, at: number, kind: ChartMarker['kind'] = 'refresh'): ChartMarker => ({ agentId, generation, at, kind, reason: 'context limit' });

describe('useMarkerLines', () => {
  it('keeps the element of a marker that did not change (recharts re-registers a line each time it renders)', () => {
    const { result, rerender } = renderHook(({ markers, labelled }) => useMarkerLines(markers, labelled), {
      initialProps: { markers: [marker('a', 2, 100), marker('b', 3, 200)], labelled: false },
    });
    const [a, b] = result.current;
    // New marker objects with the same values, one moved, one added.
    rerender({ markers: [marker('a', 2, 100), marker('b', 3, 250), marker('c', 2, 300, 'generation')], labelled: false });
    expect(result.current[0]).toBe(a);
    expect(result.current[1]).not.toBe(b);
    expect(result.current.map((l) => l.key)).toEqual(['a:2', 'b:3', 'c:2']);
    expect(result.current[2]!.props).toMatchObject({ x: 300, strokeDasharray: '4 3', className: 'chart-marker chart-marker--generation' });
    // Labels on: every line is drawn again, with its label.
    rerender({ markers: [marker('a', 2, 100)], labelled: true });
    expect(result.current[0]).not.toBe(a);
    expect(result.current[0]!.props).toMatchObject({ label: { value: '⟳ g2' } });
  });
});
