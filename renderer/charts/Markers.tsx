import { ReferenceLine, XAxis } from 'recharts';
import type { ChartMarker } from '../store/usageSelectors';
import { axisStyle, clockTick } from './chartFormat';

/** The time axis every usage chart shares (run clock, time of day); called inline, like `markerLines`. */
export function timeAxis() {
  return (
    <XAxis
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

/**
 * Generation boundaries as vertical lines on a chart's time axis: solid for a refresh, dashed for
 * another new generation (a rebuild). Labels only when few, so many agents never paint over the plot.
 * Returned as an array (recharts reads its children directly; no wrapper component).
 */
export function markerLines(markers: ChartMarker[], labelled: boolean) {
  return markers.map((m) => (
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
  ));
}
