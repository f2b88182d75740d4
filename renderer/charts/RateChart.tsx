import { memo, useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { ChartMarker, RatePoint } from '../store/usage/usageSelectors';
import { axisStyle, chartMargin, gridStroke, legendStyle, pct, pointLabel, tooltipStyle } from './chartFormat';
import { type ClockName, useMarkerLines, useTimeAxis } from './Markers';

/** What the rate chart reads of a point: a call's (RatePoint) or a time slice's (BucketRate). */
type RateRow = Pick<RatePoint, 'at' | 'hitProvider' | 'hitModel' | 'reuse'>;

export interface RateChartProps {
  data: RateRow[];
  markers: ChartMarker[];
  labelMarkers: boolean;
  /** Whether any call carries provider / cache-model figures; a series without any gets no points to walk. */
  hasProvider?: boolean;
  hasModel?: boolean;
  /** Fixed width in pixels (tests); the chart follows its container otherwise. */
  /** The clock of the time axis (its label names it). */
  clock?: ClockName;
  width?: number;
  height?: number;
}

/**
 * The parts that never change, made once: recharts re-registers a child in its store each time the
 * child renders, so a new data batch should render the chart, not its axes and legend. The time axis
 * changes only with its ticks (useTimeAxis).
 */
const GRID = <CartesianGrid key="grid" stroke={gridStroke} strokeDasharray="2 4" />;
const AXES = [
  <YAxis
    key="y"
    domain={[0, 1]}
    ticks={[0, 0.25, 0.5, 0.75, 1]}
    tickFormatter={pct}
    tick={axisStyle}
    stroke="var(--muted)"
    width={52}
    label={{ value: '% of prompt tokens', angle: -90, position: 'insideLeft', offset: 10, dy: 60, fill: 'var(--muted)', fontSize: 11 }}
  />,
  <Tooltip key="tooltip" formatter={(v) => pct(v)} labelFormatter={pointLabel} {...tooltipStyle} />,
  <Legend key="legend" verticalAlign="top" height={26} wrapperStyle={legendStyle} itemSorter={null} />,
];

/** No points: a series that has no value in any call (a legend entry only) draws from this, not the chart's data. */
const NONE: RateRow[] = [];

/** The series, made once per combination of sources present (see AXES). */
function series(hasProvider: boolean, hasModel: boolean) {
  return [
    <Line key="hitProvider" dataKey="hitProvider" name="hit rate · provider" stroke="var(--accent)" strokeWidth={2} dot={false} isAnimationActive={false} connectNulls {...(hasProvider ? {} : { data: NONE })} />,
    <Line key="hitModel" dataKey="hitModel" name="hit rate · cache model" stroke="var(--accent)" strokeWidth={2} strokeDasharray="6 4" dot={false} isAnimationActive={false} connectNulls {...(hasModel ? {} : { data: NONE })} />,
    <Line key="reuse" dataKey="reuse" name="prefix reuse (measured)" stroke="var(--ok)" strokeWidth={1.5} dot={false} isAnimationActive={false} />,
    <Line key="marker" dataKey="marker" name="refresh ⟳ / new generation +" stroke="var(--refresh)" legendType="plainline" dot={false} isAnimationActive={false} data={NONE} />,
  ];
}

/**
 * Cache hit rate and prefix reuse per call over time. Provider figures are solid, the cache model's
 * dashed; prefix reuse is measured on the prompt bytes, whichever priced the call. Memoized: it
 * redraws when its data or markers change, not when the view around it renders.
 */
export const RateChart = memo(function RateChart({ data, markers, labelMarkers, hasProvider = true, hasModel = true, clock = 'wall clock', width, height = 250 }: RateChartProps) {
  const lines = useMemo(() => series(hasProvider, hasModel), [hasProvider, hasModel]);
  const markerLines = useMarkerLines(markers, labelMarkers);
  const xAxis = useTimeAxis(data, clock);
  const chart = (
    <LineChart data={data} width={width} height={width ? height : undefined} margin={chartMargin}>
      {GRID}
      {xAxis}
      {AXES}
      {lines}
      {markerLines}
    </LineChart>
  );
  if (width) return chart;
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
      {chart}
    </ResponsiveContainer>
  );
});
