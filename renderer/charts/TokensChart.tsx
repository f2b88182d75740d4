import { memo, useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import type { ChartMarker, TokenPoint } from '../store/usage/usageSelectors';
import { axisStyle, chartMargin, gridStroke, legendStyle, pointLabel, tok, tooltipStyle } from './chartFormat';
import { type ClockName, useMarkerLines, useTimeAxis } from './Markers';

/** What the tokens chart reads of a point: a call's (TokenPoint) or a time slice's (BucketTokens). */
type TokenRow = Pick<TokenPoint, 'at' | 'readP' | 'writeP' | 'uncachedP' | 'readM' | 'writeM' | 'uncachedM'>;

export interface TokensChartProps {
  data: TokenRow[];
  markers: ChartMarker[];
  labelMarkers: boolean;
  hasProvider: boolean;
  hasModel: boolean;
  /**
   * `stepAfter` (default): a call's figures hold until the next call. `step`: points in the middle
   * of equal time slices, each value held across its slice.
   */
  curve?: 'stepAfter' | 'step';
  /** The clock of the time axis (its label names it). */
  clock?: ClockName;
  width?: number;
  height?: number;
}

const PARTS = [
  { key: 'read', label: 'cache read', color: 'var(--ok)' },
  { key: 'write', label: 'cache write', color: 'var(--warn)' },
  { key: 'uncached', label: 'uncached input', color: 'var(--accent)' },
] as const;

/** Made once, like RateChart's: a new data batch renders the chart, not its axes and legend. */
const GRID = <CartesianGrid key="grid" stroke={gridStroke} strokeDasharray="2 4" />;
const AXES = [
  <YAxis
    key="y"
    tickFormatter={tok}
    tick={axisStyle}
    stroke="var(--muted)"
    width={52}
    label={{ value: 'prompt tokens per turn', angle: -90, position: 'insideLeft', offset: 10, dy: 70, fill: 'var(--muted)', fontSize: 11 }}
  />,
  <Tooltip key="tooltip" formatter={(v) => tok(v)} labelFormatter={pointLabel} {...tooltipStyle} />,
  <Legend key="legend" verticalAlign="top" height={26} wrapperStyle={legendStyle} itemSorter={null} />,
];

/** The stacked areas of the sources present (made once per combination, like the axes: see RateChart). */
function areas(hasProvider: boolean, hasModel: boolean, curve: 'stepAfter' | 'step') {
  const sources = [
    ...(hasProvider ? [{ suffix: 'P', name: 'provider', opacity: 0.55, dash: undefined }] : []),
    ...(hasModel || !hasProvider ? [{ suffix: 'M', name: 'cache model', opacity: 0.25, dash: '5 3' }] : []),
  ];
  return sources.flatMap((s) =>
    PARTS.map((p) => (
      <Area
        key={p.key + s.suffix}
        dataKey={p.key + s.suffix}
        name={`${p.label} · ${s.name}`}
        stackId={s.suffix}
        type={curve}
        stroke={p.color}
        strokeDasharray={s.dash}
        fill={p.color}
        fillOpacity={s.opacity}
        isAnimationActive={false}
        connectNulls={false}
      />
    )),
  );
}

/**
 * Prompt tokens per turn (one call per turn) stacked by cache outcome. Provider figures are solid
 * areas, the cache model's are faint with a dashed edge; only the sources present are drawn (the
 * cache model's when there is nothing yet, so the legend says what will appear). Memoized: it
 * redraws when its data, markers or sources change.
 */
export const TokensChart = memo(function TokensChart({ data, markers, labelMarkers, hasProvider, hasModel, curve = 'stepAfter', clock = 'wall clock', width, height = 250 }: TokensChartProps) {
  const series = useMemo(() => areas(hasProvider, hasModel, curve), [hasProvider, hasModel, curve]);
  const lines = useMarkerLines(markers, labelMarkers);
  const xAxis = useTimeAxis(data, clock);
  const chart = (
    <AreaChart data={data} width={width} height={width ? height : undefined} margin={chartMargin}>
      {GRID}
      {xAxis}
      {AXES}
      {series}
      {lines}
    </AreaChart>
  );
  if (width) return chart;
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
      {chart}
    </ResponsiveContainer>
  );
});
