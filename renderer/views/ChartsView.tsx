import { useDeferredValue, useEffect, useMemo } from 'react';
import { useController, useDispatch, useStrata } from '../controller/StoreContext';
import { AgentLinesChart } from '../charts/AgentLinesChart';
import { agentLineLimit, buildAgentLines } from '../charts/agentLines';
import { clockTick } from '../charts/chartFormat';
import { RateChart } from '../charts/RateChart';
import { type BucketChartData, bucketSpan, buildBucketData } from '../charts/timeBuckets';
import { TokensChart } from '../charts/TokensChart';
import '../charts/charts.css';
import {
  buildChartData,
  type ChartData,
  selectAgentCalls,
  selectMarkers,
  selectOverallCalls,
  selectUsageByAgent,
  selectUsageLoading,
} from '../store/usage/usageSelectors';
import { usageWindow } from '../store/usage/usageSlice';
import { type ClockName, clockNote, selectChartClock } from '../store/usage/runClock';
import type { ChartScope } from '../store/ui/uiActions';
import { useFrameLag } from './useFrameLag';
import { selectProjectFolder } from './agent/ProjectRunNote';

export interface ChartsViewProps {
  /** Fixed chart width in pixels (tests: jsdom has no layout); charts follow the pane otherwise. */
  chartWidth?: number;
}

/** What the charts draw: one agent's calls, or all agents' calls in time slices. */
type ViewData = ChartData | BucketChartData;
const sliceOf = (d: ViewData): number | null => ('width' in d ? d.width : null);

const selectAgentIds = (s: { agents: { order: string[] } }) => s.agents.order;
const selectSelectedId = (s: { ui: { selectedAgentId: string | null } }) => s.ui.selectedAgentId;
const selectScope = (s: { ui: { chartScope: ChartScope } }) => s.ui.chartScope;

/**
 * Cache hit rate, prefix reuse and prompt tokens, live: per call for the selected agent, per time
 * slice for all agents (their mean), or each agent's hit rate on its own line. One clock, named on
 * the axes and in the caption (`selectChartClock`).
 */
export function ChartsView({ chartWidth }: ChartsViewProps) {
  const scope = useStrata(selectScope);
  const dispatch = useDispatch();
  const setScope = (next: ChartScope) => dispatch({ type: 'charts.scope', scope: next });
  const clock = useStrata(selectChartClock);
  const controller = useController();
  const selected = useStrata(selectSelectedId);
  const agentIds = useStrata(selectAgentIds);
  const agentId = scope === 'agent' ? selected : null;
  const agentCalls = useStrata((s) => selectAgentCalls(s, agentId));
  const overall = useStrata(selectOverallCalls);
  const byAgent = useStrata(selectUsageByAgent);
  const markers = useStrata(selectMarkers);
  const loading = useStrata((s) => selectUsageLoading(s, agentId));
  const projectFolder = useStrata(selectProjectFolder);

  useEffect(() => {
    if (agentId) void controller.loadUsage(agentId);
  }, [agentId, controller]);

  const points = scope === 'agent' ? agentCalls : overall;
  // Overall, marker positions depend on every agent's window; for one agent only on its own.
  const windows = scope !== 'agent' ? byAgent : null;
  // Deferred: live batches redraw the charts at low priority, so input and frames stay responsive.
  const dPoints = useDeferredValue(points);
  const dWindows = useDeferredValue(windows);
  // One agent: its own boundaries only, so another agent's refresh does not redraw its charts.
  const own = agentId ? markers[agentId] : undefined;
  const agentMarkers = useMemo(() => (agentId && own ? { [agentId]: own } : {}), [agentId, own]);
  const dMarkers = useDeferredValue(scope !== 'agent' ? markers : agentMarkers);
  // All agents: one point per time slice (see timeBuckets); one agent: one point per call.
  const data: ViewData = useMemo(
    () => (dWindows ? buildBucketData(dPoints, dWindows, dMarkers) : buildChartData(dPoints, agentId ? { [agentId]: dPoints } : {}, dMarkers, agentId ? [agentId] : [])),
    [dPoints, dWindows, dMarkers, agentId],
  );
  const slice = sliceOf(data);
  const lines = useMemo(() => (scope === 'each' ? buildAgentLines(dPoints, selected) : null), [scope, dPoints, selected]);

  const subject = scope === 'agent' ? (agentId ?? 'no agent selected') : scope === 'each' ? `each of ${agentIds.length} agents` : `all ${agentIds.length} agents`;
  const newest = points.at(-1);
  return (
    <section className="charts" aria-label="Charts">
      <header className="charts__bar">
        <div className="charts__scope" role="group" aria-label="Chart scope">
          <button type="button" className="charts__seg" aria-pressed={scope === 'agent'} onClick={() => setScope('agent')}>
            Selected agent
          </button>
          <button type="button" className="charts__seg" aria-pressed={scope === 'overall'} onClick={() => setScope('overall')} title="All agents together: their mean per time slice">
            All agents
          </button>
          <button type="button" className="charts__seg" aria-pressed={scope === 'each'} onClick={() => setScope('each')} title={`Each agent's hit rate on its own line (at most ${agentLineLimit}: the selected agent and the most active)`}>
            Each agent
          </button>
        </div>
        {scope !== 'overall' && (
          <label className="charts__pick">
            <span>Agent</span>
            <select value={selected ?? ''} onChange={(e) => void controller.select(e.target.value || null)} aria-label="Agent for the charts">
              {selected === null && <option value="">—</option>}
              {agentIds.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="charts__meta" data-testid="charts-count">
          {points.length} call{points.length === 1 ? '' : 's'} · {subject}
          {points.length >= usageWindow ? ` · newest ${usageWindow}` : ''}
          {newest ? ` · last ${clockTick(newest.at)}` : ''}
        </span>
      </header>
      <p className="charts__source">
        {data.hasProvider
          ? data.hasModel
            ? 'Solid: provider figures. Dashed: cache-model estimates beside them.'
            : 'Provider figures (solid).'
          : projectFolder
            ? 'Cache model only (dashed): this run has no provider calls; its calls are priced by the provider cache model.'
            : 'Cache model only (dashed): this run has no provider calls; the demo replays a recording through the provider cache model.'}{' '}
        <span data-testid="charts-clock">{clockNote(clock)}</span>
      </p>
      {points.length === 0 ? (
        <p className="charts__empty" role="status">
          {loading
            ? `Loading the calls of ${agentId}…`
            : scope === 'agent' && !agentId
              ? 'Select an agent in the tree, or show all agents.'
              : `No calls yet for ${subject}. Points appear as turns complete.`}
        </p>
      ) : (
        <>
          {lines && (
            <figure className="charts__figure charts__figure--each" aria-label="Cache hit rate per agent">
              <figcaption>{`Cache hit rate per agent: one line each, one point per ${bucketSpan(lines.width)} of ${clock}`}</figcaption>
              <AgentLinesChart rows={lines.rows} agents={lines.agents} clock={clock} {...(chartWidth ? { width: chartWidth } : {})} />
              <p className="charts__note" data-testid="charts-each">
                {lines.agents.length} agent{lines.agents.length === 1 ? '' : 's'} drawn{lines.omitted > 0 ? `, ${lines.omitted} more not drawn (the selected agent and the most active come first)` : ''}. A point is the agent&apos;s hit rate over its calls in the
                slice (figures of record: provider, or the cache model for a replay).
              </p>
            </figure>
          )}
          <figure className="charts__figure charts__figure--rate" aria-label={slice === null ? 'Cache hit rate and prefix reuse per call' : 'Cache hit rate and prefix reuse per call, all agents by time slice'}>
            <figcaption>{slice === null ? 'Cache hit rate and prefix reuse per call' : `Cache hit rate and prefix reuse per call, all agents (mean): one point per ${bucketSpan(slice)} of ${clock}`}</figcaption>
            <RateChart
              data={data.rates}
              markers={data.markers}
              labelMarkers={scope === 'agent'}
              hasProvider={data.hasProvider}
              hasModel={data.hasModel}
              clock={clock}
              {...(chartWidth ? { width: chartWidth } : {})}
            />
            {slice !== null && (
              <p className="charts__note" data-testid="charts-slice">
                A point is every call of every agent in one {bucketSpan(slice)} slice of {clock} (hover it for how many): hit rate over the slice&apos;s summed
                tokens, prefix reuse weighted by prompt size; a slice without calls has no point. The selected-agent charts show each call.
              </p>
            )}
          </figure>
          <figure className="charts__figure charts__figure--tokens" aria-label="Prompt tokens per turn">
            <figcaption>{slice === null ? 'Prompt tokens per turn by cache outcome' : `Prompt tokens per turn by cache outcome, all agents: mean per call in each ${bucketSpan(slice)}`}</figcaption>
            <LaggedTokensChart data={data} labelMarkers={scope === 'agent'} clock={clock} width={chartWidth} />
            <p className="charts__note">Per-layer (L0–L3) tokens are not reported per call; the Agent view shows a generation's layers.</p>
          </figure>
          <div className="charts__markers" aria-label="Generation markers">
            <h3>Refreshes and new generations in view ({data.markers.length})</h3>
            {data.markers.length === 0 ? (
              <p className="charts__note">None in this window.</p>
            ) : (
              <ul data-testid="chart-markers">
                {data.markers.slice(-8).reverse().map((m) => (
                  <li key={`${m.agentId}:${m.generation}`} className={`charts__marker charts__marker--${m.kind}`}>
                    <time>{clockTick(m.at)}</time> {m.kind === 'refresh' ? '⟳ refresh' : '+ generation'} {m.agentId} → g{m.generation}
                    {m.reason ? ` · ${m.reason}` : ''}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * The tokens chart, a frame behind the rate chart: each redraw is one long task (recharts
 * recomputes its whole store per data change, up to 500 calls of one agent, 100 slices of all);
 * after one batch the two would otherwise share a frame.
 */
function LaggedTokensChart({ data, labelMarkers, clock, width }: { data: ViewData; labelMarkers: boolean; clock: ClockName; width: number | undefined }) {
  const shown = useFrameLag(data);
  return (
    <TokensChart
      data={shown.tokens}
      markers={shown.markers}
      labelMarkers={labelMarkers}
      hasProvider={shown.hasProvider}
      hasModel={shown.hasModel}
      curve={sliceOf(shown) === null ? 'stepAfter' : 'step'}
      clock={clock}
      {...(width ? { width } : {})}
    />
  );
}
