import { Bar, BarChart, CartesianGrid, LabelList, Legend, Line, LineChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import type { ComparisonResultDto, ComparisonStrategy } from '../../../engine/contract';
import { percent, tokens, usd } from '../../components/format';
import type { CumulativeRow } from '../../store/comparisons/comparisonsSelectors';
import { ChartFrame } from './ChartFrame';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';
import { chartAxis, chartLegendStyle, chartTooltip } from '../../charts/chartStyle';

const HEIGHT = 260;

/**
 * A strategy axis (issue 22 item 15): every strategy is labelled, so at 1024–1440 px, where a chart
 * is 450–650 px wide, the labels are slanted and cut to a length that cannot reach the next one.
 */
const CATEGORY_AXIS = {
  ...chartAxis,
  interval: 0,
  angle: -24,
  textAnchor: 'end',
  height: 58,
  tickFormatter: (label: string) => (label.length > 22 ? `${label.slice(0, 21)}…` : label),
} as const;

const legendOf = (strategies: readonly ComparisonStrategy[]) => strategies.map((s) => ({ label: STRATEGY_LABEL[s], color: STRATEGY_COLOR[s] }));

/** Cumulative tokens per step, one line per strategy. */
export function CumulativeChart({ title, exportTitle, fileName, rows, strategies, yLabel }: { title: string; exportTitle?: string; fileName: string; rows: CumulativeRow[]; strategies: ComparisonStrategy[]; yLabel: string }) {
  return (
    <ChartFrame title={title} exportTitle={exportTitle} fileName={fileName} legend={legendOf(strategies)}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 18, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="step" {...chartAxis} minTickGap={24} label={{ value: 'step', position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
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
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...CATEGORY_AXIS} />
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
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...CATEGORY_AXIS} />
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

/**
 * The cost axis runs from 0 to a tenth past the dearest point. An automatic domain around the
 * points collapses when they are one point or nearly equal: every tick then printed the same
 * figure ("3.86M" five times). From 0, the ticks are distinct and the gaps between strategies read
 * as shares of what they cost.
 */
export function costAxisDomain(xs: readonly number[]): [number, number] {
  const max = Math.max(0, ...xs.filter(Number.isFinite));
  return [0, max > 0 ? max * 1.1 : 1];
}

/** One point of the cost-against-recall chart: a strategy at a budget. */
interface CostRecallPoint {
  strategy: ComparisonStrategy;
  x: number;
  y: number;
  budget: string;
  /** The label drawn beside the point: its budget, or every budget that lands on it. */
  label?: string;
}

/**
 * Cost against recall (issue 22 item 14): one point per strategy and budget of the charted trace,
 * prompt US dollars at list price across (prompt tokens when a replay has no list price) and pooled
 * needed-reference recall up, so the best trade-off sits top left. A replay whose steps needed no
 * content has no recall and no point; the caption says so.
 */
export function CostRecallChart({ results, fileName, exportTitle }: { results: ComparisonResultDto[]; fileName: string; exportTitle?: string }) {
  const priced = results.every((r) => r.totals.costUsd !== null);
  const points: CostRecallPoint[] = results.flatMap((r) =>
    r.totals.pooledReferenceRecall === null ? [] : [{ strategy: r.strategy, x: priced ? r.totals.costUsd!.prompt : r.totals.promptTokens, y: r.totals.pooledReferenceRecall, budget: r.budget === null ? 'no budget' : tokens(r.budget) }],
  );
  // Budgets that land on the same point share one label ("4k · 16k"), so labels never overprint.
  const at = new Map<string, CostRecallPoint[]>();
  for (const p of points) at.set(`${p.strategy}|${p.x}|${p.y}`, [...(at.get(`${p.strategy}|${p.x}|${p.y}`) ?? []), p]);
  for (const same of at.values()) same.forEach((p, i) => (p.label = i === 0 ? same.map((q) => q.budget).join(' · ') : ''));
  const strategies = [...new Set(points.map((p) => p.strategy))];
  const left = results.filter((r) => r.totals.pooledReferenceRecall === null).map((r) => STRATEGY_LABEL[r.strategy]);
  const xText = priced ? 'prompt USD' : 'prompt tokens';
  const x = (v: number) => (priced ? usd(v) : tokens(v));
  return (
    <ChartFrame title="Cost against recall (top left is best)" exportTitle={exportTitle} fileName={fileName} legend={legendOf(strategies)}>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <ScatterChart margin={{ top: 8, right: 64, bottom: 18, left: 8 }}>
          <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
          <XAxis type="number" dataKey="x" name={xText} {...chartAxis} tickCount={5} domain={costAxisDomain(points.map((p) => p.x))} tickFormatter={x} label={{ value: xText, position: 'insideBottom', offset: -8, fill: 'var(--muted)', fontSize: 11 }} />
          <YAxis type="number" dataKey="y" name="recall" {...chartAxis} width={44} domain={[0, 1]} tickFormatter={(v: number) => percent(v)} />
          <ZAxis range={[70, 70]} />
          <Tooltip
            {...chartTooltip}
            cursor={{ strokeDasharray: '3 3' }}
            formatter={(v, name) => [name === 'recall' ? percent(Number(v)) : x(Number(v)), name]}
            labelFormatter={() => ''}
          />
          <Legend verticalAlign="top" wrapperStyle={chartLegendStyle} formatter={(name) => STRATEGY_LABEL[name as ComparisonStrategy] ?? name} />
          {strategies.map((s) => (
            <Scatter key={s} name={s} data={points.filter((p) => p.strategy === s)} fill={STRATEGY_COLOR[s]} isAnimationActive={false}>
              <LabelList dataKey="label" position="right" fill="var(--muted)" fontSize={10} />
            </Scatter>
          ))}
        </ScatterChart>
      </ResponsiveContainer>
      {left.length > 0 && <p className="cmp__note">No point for {left.join(', ')}: no step needed content, so it has no recall.</p>}
    </ChartFrame>
  );
}
