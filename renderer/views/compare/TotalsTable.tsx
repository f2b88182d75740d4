import { useMemo } from 'react';
import type { ComparisonResultDto, ComparisonStrategy, TraceDto } from '../../../engine/contract';
import { percent, ttlText, usd, windowText } from '../../components/format';
import { allTracesTotals } from '../../store/comparisons/comparisonsSelectors';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

const StrategyCell = ({ strategy }: { strategy: ComparisonStrategy }) => (
  <th scope="row">
    <span className="cmp__swatch" style={{ background: STRATEGY_COLOR[strategy] }} aria-hidden="true" />
    {STRATEGY_LABEL[strategy]}
  </th>
);

/**
 * One row per replay: the figures `strata compare` prints, money in US dollars at list prices with
 * each replay's cache TTL and context window with why. With several traces, a row per strategy over all of them follows
 * (in the footer), as `strata compare <folder>` sums them. `notes` (the host's) say what the dollars
 * and TTLs rest on.
 */
export function TotalsTable({ results, traces, notes = [] }: { results: ComparisonResultDto[]; traces: readonly TraceDto[]; notes?: readonly string[] }) {
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
            <th scope="col">prompt USD</th>
            <th scope="col">total USD</th>
            <th scope="col">cache TTL</th>
            <th scope="col">window</th>
            <th scope="col">hit rate</th>
            <th scope="col">prefix reuse</th>
            <th scope="col" title="Content references held / needed over every step">
              recall pooled
            </th>
            <th scope="col" title="Mean over the steps that need content">
              recall per step
            </th>
            <th scope="col" title="Recorded re-reads of content this replay's context no longer held">
              forced re-reads
            </th>
            <th scope="col">refreshes</th>
            <th scope="col">orphans</th>
            <th scope="col" title="Requests a provider would refuse, priced as nothing sent">
              invalid
            </th>
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
              <td title={r.totals.priceNote}>{usd(r.totals.costUsd?.prompt ?? null)}</td>
              <td title={r.totals.priceNote}>{usd(r.totals.costUsd?.total ?? null)}</td>
              <td>{ttlText(r.totals.cacheTtl)}</td>
              <td title={r.totals.window?.why}>{windowText(r.totals.window)}</td>
              <td>{percent(r.totals.hitRate)}</td>
              <td>{percent(r.totals.prefixReuse)}</td>
              <td title={`${int(r.totals.references.held)} of ${int(r.totals.references.needed)} references held`}>{r.totals.pooledReferenceRecall === null ? '—' : percent(r.totals.pooledReferenceRecall)}</td>
              <td>{r.totals.neededReferenceRecall === null ? '—' : percent(r.totals.neededReferenceRecall)}</td>
              <td>{r.totals.rereadsForced}</td>
              <td>{r.totals.refreshes}</td>
              <td>{r.totals.orphans}</td>
              <td>{r.totals.invalid}</td>
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
                <td title={a.pricedTraces < a.traces ? `over the ${a.pricedTraces} traces with a list price` : undefined}>
                  {a.pricedTraces > 0 && a.pricedTraces < a.traces ? '*' : ''}
                  {usd(a.promptUsd)}
                </td>
                <td>
                  {a.pricedTraces > 0 && a.pricedTraces < a.traces ? '*' : ''}
                  {usd(a.totalUsd)}
                </td>
                <td>{a.ttl}</td>
                <td>—</td>
                <td>{percent(a.hitRate)}</td>
                <td>{percent(a.prefixReuse)}</td>
                <td>{a.pooledReferenceRecall === null ? '—' : percent(a.pooledReferenceRecall)}</td>
                <td>{a.neededReferenceRecall === null ? '—' : percent(a.neededReferenceRecall)}</td>
                <td>{a.rereadsForced}</td>
                <td>{a.refreshes}</td>
                <td>{a.orphans}</td>
                <td>{a.invalid}</td>
              </tr>
            ))}
          </tfoot>
        )}
      </table>
      {notes.length > 0 && (
        <ul className="cmp__note cmp__notes" aria-label="What the dollars and cache TTLs rest on">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <p className="cmp__note">
        Recall: of the content the recorded agent used next (the lines a read returned, an edit’s old lines, a failure it cites), the share the replay’s request already held (80% of a
        reference’s lines; a name alone does not count, and a first read is never held), pooled over all references and as the mean per step. Forced re-reads: the recorded agent’s re-reads of
        content it had already seen that the replay’s request no longer held.
      </p>
      {overAll.length > 0 && (
        <p className="cmp__note">
          The “all traces” rows sum each strategy over the traces it replayed, as `strata compare` does: their dollars over the traces with a list price (* when that is not all of them), their hit rate of
          the summed tokens, their prefix reuse byte-weighted over every step after each trace’s first, their pooled recall the references held over those needed in all traces, and their recall per
          step the mean over every step that needs content.
        </p>
      )}
    </div>
  );
}
