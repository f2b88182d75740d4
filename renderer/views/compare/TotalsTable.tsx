import { useMemo } from 'react';
import type { ComparisonResultDto, ComparisonStrategy, TraceDto } from '../../../engine/contract';
import { percent } from '../../components/format';
import { allTracesTotals } from '../../store/compareMemorySelectors';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

const StrategyCell = ({ strategy }: { strategy: ComparisonStrategy }) => (
  <th scope="row">
    <span className="cmp__swatch" style={{ background: STRATEGY_COLOR[strategy] }} aria-hidden="true" />
    {STRATEGY_LABEL[strategy]}
  </th>
);

/**
 * One row per replay: the figures `strata compare` prints. With several traces, a row per strategy
 * over all of them follows (in the footer), as `strata compare <folder>` sums them.
 */
export function TotalsTable({ results, traces }: { results: ComparisonResultDto[]; traces: readonly TraceDto[] }) {
  const names = new Map(traces.map((t) => [t.id, t.name]));
  const traceCount = new Set(results.map((r) => r.traceId)).size;
  const multiTrace = traceCount > 1;
  const overAll = useMemo(() => (multiTrace ? allTracesTotals(results) : []), [multiTrace, results]);
  return (
    <div className="cmp__table-wrap" tabIndex={0} role="group" aria-label="Totals table (scrolls sideways when narrow)">
      <table className="cmp__table" aria-label="Comparison totals">
        <thead>
          <tr>
            {multiTrace && (
              <th scope="col" className="cmp__trace-cell">
                trace
              </th>
            )}
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
            <tr key={`${r.traceId}/${r.strategy}`} data-strategy={r.strategy} data-trace={r.traceId}>
              {multiTrace && (
                <td className="cmp__trace-cell">
                  <span className="cmp__trace-name" title={names.get(r.traceId) ?? r.traceId}>
                    {names.get(r.traceId) ?? r.traceId}
                  </span>
                </td>
              )}
              <StrategyCell strategy={r.strategy} />
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
        {overAll.length > 0 && (
          <tfoot>
            {overAll.map((a) => (
              <tr key={a.strategy} className="cmp__all-row" data-strategy={a.strategy} data-trace="all">
                <td className="cmp__trace-cell">{a.traces === traceCount ? `all ${traceCount} traces` : `${a.traces} of ${traceCount} traces`}</td>
                <StrategyCell strategy={a.strategy} />
                <td>{a.budget === null ? '—' : int(a.budget)}</td>
                <td>{int(a.steps)}</td>
                <td>{int(a.promptTokens)}</td>
                <td>{int(a.uncachedTokens)}</td>
                <td>{int(a.cost)}</td>
                <td>{percent(a.hitRate)}</td>
                <td>{percent(a.prefixReuse)}</td>
                <td>{a.neededReferenceRecall === null ? '—' : percent(a.neededReferenceRecall)}</td>
                <td>{a.refreshes}</td>
                <td>{a.orphans}</td>
              </tr>
            ))}
          </tfoot>
        )}
      </table>
      <p className="cmp__note">Estimated cost is in the engine's cost units at Anthropic list-price weights (uncached input 1, cache read 0.1, cache write 1.25 per token), as `strata compare` reports it.</p>
      {overAll.length > 0 && (
        <p className="cmp__note">
          The “all traces” rows sum each strategy over the traces it replayed; their hit rate is the summed cache reads over the summed prompt tokens, and their recall the mean over every step that names a
          file or symbol. Their prefix reuse is the mean per-step reuse over every step after each trace’s first, weighted by prompt tokens (the comparison carries no prompt bytes, so it can differ
          slightly from the byte-weighted figure of `strata compare`).
        </p>
      )}
    </div>
  );
}
