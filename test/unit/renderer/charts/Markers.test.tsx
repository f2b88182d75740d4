import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pointLabel } from '../../../../renderer/charts/chartFormat';
import { timeTicks, useMarkerLines, useTimeAxis } from '../../../../renderer/charts/Markers';
import type { ChartMarker } from '../../../../renderer/store/usage/usageSelectors';

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

describe('timeTicks', () => {
  const t0 = new Date(2026, 0, 5, 9).getTime();
  const MIN = 60_000;
  it('puts at most six ticks on round clock times of the narrowest step that fits', () => {
    expect(timeTicks(t0 + 7 * MIN, t0 + 3 * 60 * MIN)).toEqual([30, 60, 90, 120, 150, 180].map((m) => t0 + m * MIN));
    expect(timeTicks(t0 + 1_500, t0 + 9_000)).toEqual([2, 4, 6, 8].map((s) => t0 + s * 1000));
    // Nothing round inside: recharts picks.
    expect(timeTicks(t0 + 100, t0 + 900)).toBeUndefined();
  });

  it('keeps the axis element while its ticks stay (a slide within the same ticks redraws no axis)', () => {
    const { result, rerender } = renderHook(({ data }) => useTimeAxis(data, 'recording time'), { initialProps: { data: [{ at: t0 + 7 * MIN }, { at: t0 + 170 * MIN }] } });
    const axis = result.current;
    rerender({ data: [{ at: t0 + 8 * MIN }, { at: t0 + 175 * MIN }] });
    expect(result.current).toBe(axis);
    rerender({ data: [{ at: t0 + 8 * MIN }, { at: t0 + 185 * MIN }] });
    expect(result.current).not.toBe(axis);
    expect(result.current.props).toMatchObject({ ticks: [30, 60, 90, 120, 150, 180].map((m) => t0 + m * MIN) });
  });

  it('names its clock in the axis label', () => {
    const data = [{ at: t0 + 7 * MIN }, { at: t0 + 170 * MIN }];
    const label = (clock: 'recording time' | 'wall clock') => (renderHook(() => useTimeAxis(data, clock)).result.current.props as { label?: unknown }).label;
    expect(label('recording time')).toMatchObject({ value: 'time of call (recording time)' });
    expect(label('wall clock')).toMatchObject({ value: 'time of call (wall clock)' });
  });
});

describe('pointLabel', () => {
  it('names a slice of the all-agents charts by its span, calls and agents', () => {
    const slice = { from: new Date(2026, 0, 5, 9).getTime(), to: new Date(2026, 0, 5, 9, 2).getTime() - 1, calls: 14, agents: 12 };
    expect(pointLabel(0, [{ payload: slice }])).toMatch(/^\S+–\S+ · 14 calls of 12 agents$/);
    expect(pointLabel(0, [{ payload: { ...slice, calls: 0, agents: 0 } }])).toMatch(/ · no calls$/);
    expect(pointLabel(new Date(2026, 0, 5, 9).getTime(), [{ payload: { agentId: 'a', turn: 3, generation: 2 } }])).toMatch(/ · a · turn 3 · gen 2$/);
  });
});
