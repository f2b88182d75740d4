import type { ComparisonResultDto, TraceDto } from '../../../engine/contract';
import { percent } from '../../components/format';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** One row per replay: the figures `strata compare` prints. */
export function TotalsTable({ results, traces }: { results: ComparisonResultDto[]; traces: readonly TraceDto[] }) {
  const names = new Map(traces.map((t) => [t.id, t.name]));
  const multiTrace = new Set(results.map((r) => r.traceId)).size > 1;
  return (
    <div className="cmp__table-wrap" tabIndex={0} role="group" aria-label="Totals table (scrolls sideways when narrow)">
      <table className="cmp__table" aria-label="Comparison totals">
        <thead>
          <tr>
            {multiTrace && <th scope="col">trace</th>}
            <th scope="col">strategy</th>
            <th scope="col">budget</th>
            <th scope="col">steps</th>
            <th scope="col">prompt tokens</th>
            <th scope="col">uncached</th>
            <th scope="col">est. cost</th>
            <th scope="col">hit rate</th>
            <th scope="col">prefix reuse</th>
            <th scope="col">recall</th>
            <th scope="col">refreshes</th>
            <th scope="col">orphans</th>
          </tr>
        </thead>
        <tbody>
          {results.map((r) => (
            <tr key={`${r.traceId}/${r.strategy}`} data-strategy={r.strategy}>
              {multiTrace && <td>{names.get(r.traceId) ?? r.traceId}</td>}
              <th scope="row">
                <span className="cmp__swatch" style={{ background: STRATEGY_COLOR[r.strategy] }} aria-hidden="true" />
                {STRATEGY_LABEL[r.strategy]}
              </th>
              <td>{r.budget === null ? '—' : int(r.budget)}</td>
              <td>{int(r.totals.steps)}</td>
              <td>{int(r.totals.promptTokens)}</td>
              <td>{int(r.totals.uncachedTokens)}</td>
              <td>{int(r.totals.cost)}</td>
              <td>{percent(r.totals.hitRate)}</td>
              <td>{percent(r.totals.prefixReuse)}</td>
              <td>{r.totals.neededReferenceRecall === null ? '—' : percent(r.totals.neededReferenceRecall)}</td>
              <td>{r.totals.refreshes}</td>
              <td>{r.totals.orphans}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cmp__note">Estimated cost is in the engine's cost units at Anthropic list-price weights (uncached input 1, cache read 0.1, cache write 1.25 per token), as `strata compare` reports it.</p>
    </div>
  );
}
