import { memo, useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import { type AgentLineRow, lineKey } from './agentLines';
import { axisStyle, chartMargin, clockTick, gridStroke, legendStyle, pct, tooltipStyle } from './chartFormat';
import { type ClockName, useTimeAxis } from './Markers';

/** Line colours, theme variables first; an agent keeps its colour while the drawn set holds. */
const COLORS = ['var(--accent)', 'var(--ok)', 'var(--warn)', 'var(--refresh)', 'var(--bad)', 'var(--muted)', 'var(--text)', 'var(--accent)'];
const DASHES = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, '6 4'];

export interface AgentLinesChartProps {
  rows: AgentLineRow[];
  agents: string[];
  clock: ClockName;
  width?: number;
  height?: number;
}

const sliceLabel = (_: unknown, payload: readonly { payload?: unknown }[] | undefined): string => {
  const p = payload?.[0]?.payload as AgentLineRow | undefined;
  return p ? `${clockTick(p.from)}–${clockTick(p.to + 1)}` : '';
};

/** Each agent's cache hit rate per time slice, one line per agent (the first drawn thicker: the selected agent). */
export const AgentLinesChart = memo(function AgentLinesChart({ rows, agents, clock, width, height = 250 }: AgentLinesChartProps) {
  const lines = useMemo(
    () =>
      agents.map((id, i) => (
        <Line
          key={id}
          dataKey={lineKey(id)}
          name={id}
          stroke={COLORS[i % COLORS.length]}
          strokeDasharray={DASHES[i % DASHES.length]}
          strokeWidth={i === 0 ? 2.5 : 1.5}
          dot={false}
          isAnimationActive={false}
          connectNulls
        />
      )),
    [agents],
  );
  const xAxis = useTimeAxis(rows, clock);
  const chart = (
    <LineChart data={rows} width={width} height={width ? height : undefined} margin={chartMargin}>
      <CartesianGrid stroke={gridStroke} strokeDasharray="2 4" />
      {xAxis}
      <YAxis
        domain={[0, 1]}
        ticks={[0, 0.25, 0.5, 0.75, 1]}
        tickFormatter={pct}
        tick={axisStyle}
        stroke="var(--muted)"
        width={52}
        label={{ value: 'cache hit rate', angle: -90, position: 'insideLeft', offset: 10, dy: 45, fill: 'var(--muted)', fontSize: 11 }}
      />
      <Tooltip formatter={(v) => pct(v)} labelFormatter={sliceLabel} {...tooltipStyle} />
      <Legend verticalAlign="top" height={26} wrapperStyle={legendStyle} itemSorter={null} />
      {lines}
    </LineChart>
  );
  if (width) return chart;
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 640, height }}>
      {chart}
    </ResponsiveContainer>
  );
});
