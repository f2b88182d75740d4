import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useController, useStrata } from '../controller/StoreContext';
import { clockTick } from '../charts/chartFormat';
import { RateChart } from '../charts/RateChart';
import { type BucketChartData, bucketSpan, buildBucketData } from '../charts/timeBuckets';
import { TokensChart } from '../charts/TokensChart';
import '../charts/charts.css';
import {
  buildChartData,
  type ChartData,
  type ChartScope,
  selectAgentCalls,
  selectMarkers,
  selectOverallCalls,
  selectUsageByAgent,
  selectUsageLoading,
} from '../store/usage/usageSelectors';
import { usageWindow } from '../store/usage/usageSlice';
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

/** Cache hit rate, prefix reuse and prompt tokens, live: per call for the selected agent, per time slice for all agents. */
export function ChartsView({ chartWidth }: ChartsViewProps) {
  const [scope, setScope] = useState<ChartScope>('agent');
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
  const windows = scope === 'overall' ? byAgent : null;
  // Deferred: live batches redraw the charts at low priority, so input and frames stay responsive.
  const dPoints = useDeferredValue(points);
  const dWindows = useDeferredValue(windows);
  // One agent: its own boundaries only, so another agent's refresh does not redraw its charts.
  const own = agentId ? markers[agentId] : undefined;
  const agentMarkers = useMemo(() => (agentId && own ? { [agentId]: own } : {}), [agentId, own]);
  const dMarkers = useDeferredValue(scope === 'overall' ? markers : agentMarkers);
  // All agents: one point per time slice (see timeBuckets); one agent: one point per call.
  const data: ViewData = useMemo(
    () => (dWindows ? buildBucketData(dPoints, dWindows, dMarkers) : buildChartData(dPoints, agentId ? { [agentId]: dPoints } : {}, dMarkers, agentId ? [agentId] : [])),
    [dPoints, dWindows, dMarkers, agentId],
  );
  const slice = sliceOf(data);

  const subject = scope === 'agent' ? (agentId ?? 'no agent selected') : `all ${agentIds.length} agents`;
  const newest = points.at(-1);
  return (
    <section className="charts" aria-label="Charts">
      <header className="charts__bar">
        <div className="charts__scope" role="group" aria-label="Chart scope">
          <button type="button" className="charts__seg" aria-pressed={scope === 'agent'} onClick={() => setScope('agent')}>
            Selected agent
          </button>
          <button type="button" className="charts__seg" aria-pressed={scope === 'overall'} onClick={() => setScope('overall')}>
            All agents
          </button>
        </div>
        {scope === 'agent' && (
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
            : 'Cache model only (dashed): this run has no provider calls; the demo replays a recording through the provider cache model.'}
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
          <figure className="charts__figure charts__figure--rate" aria-label={slice === null ? 'Cache hit rate and prefix reuse per call' : 'Cache hit rate and prefix reuse per call, all agents by time slice'}>
            <figcaption>{slice === null ? 'Cache hit rate and prefix reuse per call' : `Cache hit rate and prefix reuse per call, all agents: one point per ${bucketSpan(slice)} of run clock`}</figcaption>
            <RateChart
              data={data.rates}
              markers={data.markers}
              labelMarkers={scope === 'agent'}
              hasProvider={data.hasProvider}
              hasModel={data.hasModel}
              {...(chartWidth ? { width: chartWidth } : {})}
            />
            {slice !== null && (
              <p className="charts__note" data-testid="charts-slice">
                A point is every call of every agent in one {bucketSpan(slice)} slice of the run clock (hover it for how many): hit rate over the slice&apos;s summed
                tokens, prefix reuse weighted by prompt size; a slice without calls has no point. The selected-agent charts show each call.
              </p>
            )}
          </figure>
          <figure className="charts__figure charts__figure--tokens" aria-label="Prompt tokens per turn">
            <figcaption>{slice === null ? 'Prompt tokens per turn by cache outcome' : `Prompt tokens per turn by cache outcome, all agents: mean per call in each ${bucketSpan(slice)}`}</figcaption>
            <LaggedTokensChart data={data} labelMarkers={scope === 'agent'} width={chartWidth} />
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
function LaggedTokensChart({ data, labelMarkers, width }: { data: ViewData; labelMarkers: boolean; width: number | undefined }) {
  const shown = useFrameLag(data);
  return (
    <TokensChart
      data={shown.tokens}
      markers={shown.markers}
      labelMarkers={labelMarkers}
      hasProvider={shown.hasProvider}
      hasModel={shown.hasModel}
      curve={sliceOf(shown) === null ? 'stepAfter' : 'step'}
      {...(width ? { width } : {})}
    />
  );
}
