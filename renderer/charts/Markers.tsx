import { type ReactElement, useRef } from 'react';
import { ReferenceLine, XAxis } from 'recharts';
import type { ChartMarker } from '../store/usage/usageSelectors';
import type { ClockName } from '../store/usage/runClock';
import { axisStyle, clockTick } from './chartFormat';

export type { ClockName };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Tick spacings of the time axis: round spans of the clock. */
const TICK_STEPS = [1, 2, 5, 10, 15, 30].map((s) => s * SECOND).concat([1, 2, 5, 10, 15, 30].map((m) => m * MINUTE), [1, 2, 3, 6, 12, 24].map((h) => h * HOUR));

/**
 * Time-axis ticks on round clock times (10:30:00, 10:45:00, …), at most `most`, from the narrowest
 * round step that fits; `undefined` (recharts picks) when none falls between `first` and `last`.
 * Round ticks stay put while the window slides, so their labels repeat: recharts measures every
 * tick label it has not seen in the DOM (a forced layout of the page, per axis and per grid, each
 * redraw), and the nice ticks it derives from the data's min and max are new labels every batch.
 */
export function timeTicks(first: number, last: number, most = 6): number[] | undefined {
  // Whole hours of the local clock, like the labels (a zone may be a half hour off UTC).
  const off = new Date(first).getTimezoneOffset() * MINUTE;
  for (const step of TICK_STEPS) {
    const start = Math.ceil((first - off) / step) * step + off;
    const count = Math.floor((last - start) / step) + 1;
    if (count <= most) return count > 0 ? Array.from({ length: count }, (_, i) => start + i * step) : undefined;
  }
  return undefined;
}

/** The time axis every usage chart shares (time of day on `clock`, which its label names), with `ticks` (see timeTicks) or recharts' own. */
function timeAxis(ticks: number[] | undefined, clock: ClockName) {
  return (
    <XAxis
      key="time"
      dataKey="at"
      type="number"
      domain={['dataMin', 'dataMax']}
      ticks={ticks}
      tickFormatter={clockTick}
      minTickGap={48}
      tick={axisStyle}
      stroke="var(--muted)"
      label={{ value: `time of call (${clock})`, position: 'insideBottom', offset: -10, fill: 'var(--muted)', fontSize: 11 }}
    />
  );
}

/**
 * The time axis of a chart of `data` (oldest first), on round clock ticks. The element is kept while
 * its ticks do not change: a recharts axis re-registers its settings in the chart's store (a
 * recompute of every selector) each time it renders.
 */
export function useTimeAxis(data: readonly { at: number }[], clock: ClockName): ReactElement {
  const first = data[0]?.at;
  const last = data.at(-1)?.at;
  const ticks = first === undefined || last === undefined ? undefined : timeTicks(first, last);
  const key = `${clock}:${ticks?.join(',') ?? ''}`;
  const axis = useRef<{ key: string; element: ReactElement } | null>(null);
  if (axis.current?.key !== key) axis.current = { key, element: timeAxis(ticks, clock) };
  return axis.current.element;
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
