import { type ReactElement, useRef } from 'react';
import { ReferenceLine, XAxis } from 'recharts';
import type { ChartMarker } from '../store/usageSelectors';
import { axisStyle, clockTick } from './chartFormat';

/** The time axis every usage chart shares (run clock, time of day): an element for a chart's children. */
export function timeAxis() {
  return (
    <XAxis
      key="time"
      dataKey="at"
      type="number"
      domain={['dataMin', 'dataMax']}
      tickFormatter={clockTick}
      minTickGap={48}
      tick={axisStyle}
      stroke="var(--muted)"
      label={{ value: 'time of call (run clock)', position: 'insideBottom', offset: -10, fill: 'var(--muted)', fontSize: 11 }}
    />
  );
}

/** One generation boundary: solid for a refresh, dashed for another new generation (a rebuild). */
function markerLine(m: ChartMarker, labelled: boolean) {
  return (
    <ReferenceLine
      key={`${m.agentId}:${m.generation}`}
      x={m.at}
      stroke="var(--refresh)"
      strokeWidth={1.5}
      strokeDasharray={m.kind === 'refresh' ? undefined : '4 3'}
      ifOverflow="hidden"
      className={`chart-marker chart-marker--${m.kind}`}
      label={labelled ? { value: `${m.kind === 'refresh' ? '⟳' : '+'} g${m.generation}`, position: 'insideTopLeft', fill: 'var(--refresh)', fontSize: 11 } : undefined}
    />
  );
}

/**
 * Generation boundaries as vertical lines on a chart's time axis, as an array of chart children.
 * Labels only when few (`labelled`), so many agents never paint over the plot. The element of a
 * marker that did not change is kept from one render to the next: a recharts ReferenceLine
 * re-registers itself in the chart's store (two store updates, each re-running the chart's
 * selectors) every time it renders; an unchanged element does not render.
 */
export function useMarkerLines(markers: ChartMarker[], labelled: boolean): ReactElement[] {
  const cache = useRef(new Map<string, ReactElement>());
  const next = new Map<string, ReactElement>();
  const lines = markers.map((m) => {
    const id = `${m.agentId}\u0000${m.generation}\u0000${m.at}\u0000${m.kind}\u0000${labelled}`;
    const line = cache.current.get(id) ?? markerLine(m, labelled);
    next.set(id, line);
    return line;
  });
  cache.current = next;
  return lines;
}
