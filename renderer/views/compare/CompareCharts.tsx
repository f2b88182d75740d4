import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ComparisonResultDto, ComparisonStrategy } from '../../../engine/contract';
import { percent, tokens, usd } from '../../components/format';
import type { CumulativeRow } from '../../store/comparisons/comparisonsSelectors';
import { ChartFrame } from './ChartFrame';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';
import { chartAxis, chartLegendStyle, chartTooltip } from '../../charts/chartStyle';

const HEIGHT = 260;

const legendOf = (strategies: readonly ComparisonStrategy[]) => strategies.map((s) => ({ label: STRATEGY_LABEL[s], color: STRATEGY_COLOR[s] }));

/** Cumulative tokens per step, one line per strategy. */
export function CumulativeChart({ title, exportTitle, fileName, rows, strategies, yLabel }: { title: string; exportTitle?: string; fileName: string; rows: CumulativeRow[]; strategies: ComparisonStrategy[]; yLabel: string }) {
  return (
    <ChartFrame title={title} exportTitle={exportTitle} fileName={fileName} legend={legendOf(strategies)}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 18, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="step" {...chartAxis} label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
          <YAxis {...chartAxis} width={56} tickFormatter={(v: number) => tokens(v)} label={{ value: yLabel, angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11, dy: 40 }} />
          <Tooltip {...chartTooltip} formatter={(v, name) => [`${Number(v).toLocaleString('en-US')} tokens`, STRATEGY_LABEL[name as ComparisonStrategy] ?? name]} labelFormatter={(l) => `step ${l}`} />
          <Legend verticalAlign="top" wrapperStyle={chartLegendStyle} formatter={(name) => STRATEGY_LABEL[name as ComparisonStrategy] ?? name} />
          {strategies.map((s) => (
            <Line key={s} type="monotone" dataKey={s} name={s} stroke={STRATEGY_COLOR[s]} strokeWidth={2} dot={false} isAnimationActive={false} strokeDasharray={s === 'full_history_baseline' ? '5 4' : undefined} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

/**
 * Prompt cost per strategy in US dollars at the priced model's list price (input, cache reads and
 * writes; output is the same for every strategy), one bar each; a replay without a list price has
 * no bar and says so in its label.
 */
export function CostChart({ results, fileName, exportTitle }: { results: ComparisonResultDto[]; fileName: string; exportTitle?: string }) {
  const rows = results.map((r) => ({ strategy: r.strategy, label: r.totals.costUsd ? STRATEGY_LABEL[r.strategy] : `${STRATEGY_LABEL[r.strategy]} (no list price)`, promptUsd: r.totals.costUsd?.prompt ?? null }));
  return (
    <ChartFrame title="Prompt cost (US dollars at list price)" exportTitle={exportTitle} fileName={fileName} legend={[{ label: 'prompt USD (uncached input, cache reads and writes)', color: 'var(--accent)' }]}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 18, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...chartAxis} interval={0} />
          <YAxis {...chartAxis} width={56} tickFormatter={(v: number) => usd(v)} />
          <Tooltip {...chartTooltip} cursor={{ fill: 'var(--panel-2)' }} formatter={(v) => [usd(Number(v)), 'prompt USD']} />
          <Legend verticalAlign="top" wrapperStyle={chartLegendStyle} formatter={() => 'prompt USD'} />
          <Bar dataKey="promptUsd" name="promptUsd" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}

const RATES = [
  { key: 'hitRate', label: 'hit rate', color: 'var(--ok)' },
  { key: 'prefixReuse', label: 'prefix reuse', color: 'var(--accent)' },
  { key: 'recall', label: 'needed-reference recall (pooled)', color: 'var(--refresh)' },
] as const;

/** Hit rate, prefix reuse and needed-reference recall (pooled over the replay's references) per strategy, as grouped bars. */
export function RatesChart({ results, fileName, exportTitle }: { results: ComparisonResultDto[]; fileName: string; exportTitle?: string }) {
  const rows = results.map((r) => ({ label: STRATEGY_LABEL[r.strategy], hitRate: r.totals.hitRate, prefixReuse: r.totals.prefixReuse, recall: r.totals.pooledReferenceRecall ?? 0 }));
  return (
    <ChartFrame title="Hit rate · prefix reuse · recall" exportTitle={exportTitle} fileName={fileName} legend={RATES.map((r) => ({ label: r.label, color: r.color }))}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 18, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...chartAxis} interval={0} />
          <YAxis {...chartAxis} width={44} domain={[0, 1]} tickFormatter={(v: number) => percent(v)} />
          <Tooltip {...chartTooltip} cursor={{ fill: 'var(--panel-2)' }} formatter={(v, name) => [percent(Number(v)), RATES.find((r) => r.key === name)?.label ?? name]} />
          <Legend verticalAlign="top" wrapperStyle={chartLegendStyle} formatter={(name) => RATES.find((r) => r.key === name)?.label ?? name} />
          {RATES.map((r) => (
            <Bar key={r.key} dataKey={r.key} name={r.key} fill={r.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
