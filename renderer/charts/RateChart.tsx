import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { ChartMarker, RatePoint } from '../store/usageSelectors';
import { axisStyle, gridStroke, legendStyle, pct, pointLabel, tooltipStyle } from './chartFormat';
import { markerLines, timeAxis } from './Markers';

export interface RateChartProps {
  data: RatePoint[];
  markers: ChartMarker[];
  labelMarkers: boolean;
  /** Fixed width in pixels (tests); the chart follows its container otherwise. */
  width?: number;
  height?: number;
}

/**
 * Cache hit rate and prefix reuse per call over time. Provider figures are solid, the cache model's
 * dashed; prefix reuse is measured on the prompt bytes, whichever priced the call.
 */
export function RateChart({ data, markers, labelMarkers, width, height = 250 }: RateChartProps) {
  const chart = (
    <LineChart data={data} width={width} height={width ? height : undefined} margin={{ top: 14, right: 18, bottom: 18, left: 8 }}>
      <CartesianGrid stroke={gridStroke} strokeDasharray="2 4" />
      {timeAxis()}
      <YAxis
        domain={[0, 1]}
        ticks={[0, 0.25, 0.5, 0.75, 1]}
        tickFormatter={pct}
        tick={axisStyle}
        stroke="var(--muted)"
        width={52}
        label={{ value: '% of prompt tokens', angle: -90, position: 'insideLeft', offset: 10, dy: 60, fill: 'var(--muted)', fontSize: 11 }}
      />
      <Tooltip formatter={(v) => pct(v)} labelFormatter={pointLabel} {...tooltipStyle} />
      <Legend verticalAlign="top" height={26} wrapperStyle={legendStyle} itemSorter={null} />
      <Line dataKey="hitProvider" name="hit rate · provider" stroke="var(--accent)" strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />
      <Line dataKey="hitModel" name="hit rate · cache model" stroke="var(--accent)" strokeWidth={2} strokeDasharray="6 4" dot={false} isAnimationActive={false} connectNulls />
      <Line dataKey="reuse" name="prefix reuse (measured)" stroke="var(--ok)" strokeWidth={1.5} dot={false} isAnimationActive={false} />
      <Line dataKey="marker" name="refresh ⟳ / new generation +" stroke="var(--refresh)" legendType="plainline" dot={false} isAnimationActive={false} />
      {markerLines(markers, labelMarkers)}
    </LineChart>
  );
  if (width) return chart;
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
      {chart}
    </ResponsiveContainer>
  );
}
