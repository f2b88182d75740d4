import { memo, type ReactElement } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { percent, tokens } from '../../components/format';
import type { SessionStepRow } from '../../store/sessions/sessionFigures';
import { ChartFrame } from '../compare/ChartFrame';
import { chartAxis, chartLegendStyle, chartTooltip } from '../../charts/chartStyle';

/** The two series' names and colours; the recorded one solid, Strata's (modelled) dashed, as in the Charts view. */
export interface SeriesNames {
  real: string;
  strata: string;
}
export const REAL_COLOR = 'var(--warn)';
export const STRATA_COLOR = 'var(--accent)';

/** Steps marked on every chart's time axis. */
export interface SessionMarks {
  compactions: readonly number[];
  generations: readonly { step: number; generation: number; kind: 'rebuild' | 'refresh' }[];
}

const HEIGHT = 220;

interface ChartSpec {
  title: string;
  file: string;
  yLabel: string;
  real: keyof SessionStepRow;
  strata: keyof SessionStepRow;
  rate: boolean;
}

const CHARTS: ChartSpec[] = [
  { title: 'Cumulative prompt tokens', file: 'prompt-tokens', yLabel: 'prompt tokens', real: 'realPrompt', strata: 'strataPrompt', rate: false },
  { title: 'Cumulative uncached input tokens', file: 'uncached-tokens', yLabel: 'uncached input', real: 'realUncached', strata: 'strataUncached', rate: false },
  { title: 'Cache hit rate per step', file: 'hit-rate', yLabel: '% of prompt tokens', real: 'realHitRate', strata: 'strataHitRate', rate: true },
];

/**
 * Recorded and Strata's figures per step, side by side: cumulative prompt tokens, cumulative
 * uncached input, and the cache hit rate of each step. Memoized: redrawn when the session's series
 * change, not when the view around it renders. `width` fixes the size (tests; no layout in jsdom).
 */
export const SessionCharts = memo(function SessionCharts({
  sessionId,
  rows,
  names,
  marks,
  width,
}: {
  sessionId: string;
  rows: SessionStepRow[];
  names: SeriesNames;
  /** Steps to mark: where the recording compacted its context, and where Strata's replay began a generation. */
  marks: SessionMarks;
  width?: number | undefined;
}) {
  const legend = [
    { label: names.real, color: REAL_COLOR },
    { label: names.strata, color: STRATA_COLOR },
  ];
  return (
    <div className="session-cmp__charts">
      {CHARTS.map((c) => (
        <ChartFrame key={c.file} title={c.title} fileName={`${sessionId}-${c.file}.png`} legend={legend}>
          {sized(
            width,
            <LineChart data={rows} width={width} height={width ? HEIGHT : undefined} margin={{ top: 8, right: 16, bottom: 18, left: 8 }}>
              <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
              <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} allowDecimals={false} {...chartAxis} label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
              <YAxis
                {...chartAxis}
                width={56}
                domain={c.rate ? [0, 1] : [0, 'auto']}
                tickFormatter={(v: number) => (c.rate ? percent(v) : tokens(v))}
                label={{ value: c.yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dy: 40 }}
              />
              <Tooltip {...chartTooltip} labelFormatter={(l) => `step ${l}`} formatter={(v) => (c.rate ? percent(Number(v)) : `${Number(v).toLocaleString('en-US')} tokens`)} />
              {/* By data key (real… before strata…), so the recording comes first whatever the names. */}
              <Legend verticalAlign="top" wrapperStyle={chartLegendStyle} itemSorter="dataKey" />
              {marks.compactions.map((step) => (
                <ReferenceLine key={`c${step}`} x={step} stroke={REAL_COLOR} strokeDasharray="2 3" label={{ value: 'compact', position: 'insideTopLeft', fill: REAL_COLOR, fontSize: 10 }} />
              ))}
              {marks.generations.map((g) => (
                <ReferenceLine
                  key={`g${g.generation}`}
                  x={g.step}
                  stroke={STRATA_COLOR}
                  strokeDasharray="2 3"
                  label={{ value: `${g.kind === 'refresh' ? '⟳' : '+'} g${g.generation}`, position: 'insideTopRight', fill: STRATA_COLOR, fontSize: 10 }}
                />
              ))}
              <Line type="monotone" dataKey={c.real} name={names.real} stroke={REAL_COLOR} strokeWidth={2} dot={false} connectNulls isAnimationActive={false} />
              <Line type="monotone" dataKey={c.strata} name={names.strata} stroke={STRATA_COLOR} strokeWidth={2} strokeDasharray="5 4" dot={false} connectNulls isAnimationActive={false} />
            </LineChart>,
          )}
        </ChartFrame>
      ))}
    </div>
  );
});

function sized(width: number | undefined, chart: ReactElement): ReactElement {
  if (width) return chart;
  return (
    <ResponsiveContainer width="100%" height={HEIGHT} initialDimension={{ width: 480, height: HEIGHT }}>
      {chart}
    </ResponsiveContainer>
  );
}
