import { useMemo, type ReactNode } from 'react';
import type { ComparisonResultDto, ComparisonStrategy, TraceDto } from '../../../engine/contract';
import { percent, ttlText, usd, windowText } from '../../components/format';
import { BETTER, bestCells } from '../../store/comparisons/bestValues';
import { allTracesTotals, type AllTracesTotals } from '../../store/comparisons/comparisonsSelectors';
import { STRATEGY_COLOR, STRATEGY_LABEL } from './strategies';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

const StrategyCell = ({ strategy }: { strategy: ComparisonStrategy }) => (
  <th scope="row">
    <span className="cmp__swatch" style={{ background: STRATEGY_COLOR[strategy] }} aria-hidden="true" />
    {STRATEGY_LABEL[strategy]}
  </th>
);

/** A judged column's header, with which way is better. */
function Judged({ column, children, title }: { column: keyof typeof BETTER & string; children: ReactNode; title?: string }) {
  const lower = BETTER[column] === 'lower';
  return (
    <th scope="col" title={title}>
      {children}
      <span className="cmp__better" title={lower ? 'lower is better' : 'higher is better'}>
        {lower ? ' ↓' : ' ↑'}
        <span className="cmp__sr"> {lower ? 'lower is better' : 'higher is better'}</span>
      </span>
    </th>
  );
}

/** A cell of a judged column, highlighted (and said) when it holds the best value of its group. */
function Cell({ best, children, title }: { best: boolean; children: ReactNode; title?: string | undefined }) {
  return (
    <td className={best ? 'cmp__best' : undefined} title={title} data-best={best || undefined}>
      {children}
      {best && <span className="cmp__sr"> (best)</span>}
    </td>
  );
}

/** A replay's value in a judged column, for `bestCells`. */
function resultValue(r: ComparisonResultDto, column: string): number | null {
  const t = r.totals;
  if (column === 'promptUsd') return t.costUsd?.prompt ?? null;
  if (column === 'totalUsd') return t.costUsd?.total ?? null;
  const v = (t as unknown as Record<string, unknown>)[column];
  return typeof v === 'number' ? v : null;
}

function allValue(a: AllTracesTotals, column: string): number | null {
  const v = (a as unknown as Record<string, unknown>)[column];
  return typeof v === 'number' ? v : null;
}

/**
 * One row per replay: the figures `strata compare` prints, money in US dollars at list prices beside
 * the tokens, with each replay's cache TTL and context window with why. The best value of each
 * judged column is highlighted among one trace's replays (and among the all-traces rows), and each
 * judged header says which way is better. With several traces, a row per strategy and budget over
 * all of them follows (in the footer), as `strata compare <folder>` sums them. `notes` (the host's)
 * say what the dollars and TTLs rest on.
 */
export function TotalsTable({ results, traces, notes = [], traceNames }: { results: ComparisonResultDto[]; traces: readonly TraceDto[]; notes?: readonly string[]; traceNames?: ReadonlyMap<string, string> }) {
  const names = traceNames ?? new Map(traces.map((t) => [t.id, t.name]));
  const traceCount = new Set(results.map((r) => r.traceId)).size;
  const multiTrace = traceCount > 1;
  const overAll = useMemo(() => (multiTrace ? allTracesTotals(results) : []), [multiTrace, results]);
  // The best of each column among the replays of the same trace.
  const best = useMemo(() => {
    const byRow = new Map<number, Set<string>>();
    const groups = new Map<string, number[]>();
    results.forEach((r, i) => groups.set(r.traceId, [...(groups.get(r.traceId) ?? []), i]));
    for (const rows of groups.values()) {
      for (const [column, winners] of bestCells(rows.map((i) => results[i]!), resultValue)) {
        for (const w of winners) byRow.set(rows[w]!, new Set([...(byRow.get(rows[w]!) ?? []), column]));
      }
    }
    return byRow;
  }, [results]);
  const bestAll = useMemo(() => bestCells(overAll, allValue), [overAll]);
  const isBest = (i: number, column: string) => best.get(i)?.has(column) ?? false;
  const isBestAll = (i: number, column: string) => bestAll.get(column)?.has(i) ?? false;
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
            <Judged column="promptTokens">prompt tokens</Judged>
            <Judged column="promptUsd">prompt USD</Judged>
            <Judged column="uncachedTokens">uncached</Judged>
            <Judged column="totalUsd" title="Prompt and output at list price">
              total USD
            </Judged>
            <th scope="col">cache TTL</th>
            <th scope="col">window</th>
            <Judged column="hitRate">hit rate</Judged>
            <Judged column="prefixReuse">prefix reuse</Judged>
            <Judged column="pooledReferenceRecall" title="Content references held / needed over every step">
              recall pooled
            </Judged>
            <Judged column="neededReferenceRecall" title="Mean over the steps that need content">
              recall per step
            </Judged>
            <Judged column="rereadsForced" title="Recorded re-reads of content this replay's context no longer held">
              forced re-reads
            </Judged>
            <th scope="col">refreshes</th>
            <Judged column="orphans">orphans</Judged>
            <Judged column="invalid" title="Requests a provider would refuse, priced as nothing sent">
              invalid
            </Judged>
          </tr>
        </thead>
        <tbody>
          {results.map((r, i) => (
            <tr key={`${r.traceId}/${r.strategy}/${r.budget}`} data-strategy={r.strategy} data-trace={r.traceId} data-budget={r.budget ?? 'none'}>
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
              <Cell best={isBest(i, 'promptTokens')}>{int(r.totals.promptTokens)}</Cell>
              <Cell best={isBest(i, 'promptUsd')} title={r.totals.priceNote}>
                {usd(r.totals.costUsd?.prompt ?? null)}
              </Cell>
              <Cell best={isBest(i, 'uncachedTokens')}>{int(r.totals.uncachedTokens)}</Cell>
              <Cell best={isBest(i, 'totalUsd')} title={r.totals.priceNote}>
                {usd(r.totals.costUsd?.total ?? null)}
              </Cell>
              <td>{ttlText(r.totals.cacheTtl)}</td>
              <td title={r.totals.window?.why}>{windowText(r.totals.window)}</td>
              <Cell best={isBest(i, 'hitRate')}>{percent(r.totals.hitRate)}</Cell>
              <Cell best={isBest(i, 'prefixReuse')}>{percent(r.totals.prefixReuse)}</Cell>
              <Cell best={isBest(i, 'pooledReferenceRecall')} title={`${int(r.totals.references.held)} of ${int(r.totals.references.needed)} references held`}>
                {r.totals.pooledReferenceRecall === null ? '—' : percent(r.totals.pooledReferenceRecall)}
              </Cell>
              <Cell best={isBest(i, 'neededReferenceRecall')}>{r.totals.neededReferenceRecall === null ? '—' : percent(r.totals.neededReferenceRecall)}</Cell>
              <Cell best={isBest(i, 'rereadsForced')}>{r.totals.rereadsForced}</Cell>
              <td>{r.totals.refreshes}</td>
              <Cell best={isBest(i, 'orphans')}>{r.totals.orphans}</Cell>
              <Cell best={isBest(i, 'invalid')}>{r.totals.invalid}</Cell>
            </tr>
          ))}
        </tbody>
        {overAll.length > 0 && (
          <tfoot>
            {overAll.map((a, i) => (
              <tr key={`${a.strategy}/${a.budget}`} className="cmp__all-row" data-strategy={a.strategy} data-trace="all" data-budget={a.budget ?? 'none'}>
                <td className="cmp__trace-cell">{a.traces === traceCount ? `all ${traceCount} traces` : `${a.traces} of ${traceCount} traces`}</td>
                <StrategyCell strategy={a.strategy} />
                <td>{a.budget === null ? '—' : int(a.budget)}</td>
                <td>{int(a.steps)}</td>
                <Cell best={isBestAll(i, 'promptTokens')}>{int(a.promptTokens)}</Cell>
                <Cell best={isBestAll(i, 'promptUsd')} title={a.pricedTraces < a.traces ? `over the ${a.pricedTraces} traces with a list price` : undefined}>
                  {a.pricedTraces > 0 && a.pricedTraces < a.traces ? '*' : ''}
                  {usd(a.promptUsd)}
                </Cell>
                <Cell best={isBestAll(i, 'uncachedTokens')}>{int(a.uncachedTokens)}</Cell>
                <Cell best={isBestAll(i, 'totalUsd')}>
                  {a.pricedTraces > 0 && a.pricedTraces < a.traces ? '*' : ''}
                  {usd(a.totalUsd)}
                </Cell>
                <td>{a.ttl}</td>
                <td>—</td>
                <Cell best={isBestAll(i, 'hitRate')}>{percent(a.hitRate)}</Cell>
                <Cell best={isBestAll(i, 'prefixReuse')}>{percent(a.prefixReuse)}</Cell>
                <Cell best={isBestAll(i, 'pooledReferenceRecall')}>{a.pooledReferenceRecall === null ? '—' : percent(a.pooledReferenceRecall)}</Cell>
                <Cell best={isBestAll(i, 'neededReferenceRecall')}>{a.neededReferenceRecall === null ? '—' : percent(a.neededReferenceRecall)}</Cell>
                <Cell best={isBestAll(i, 'rereadsForced')}>{a.rereadsForced}</Cell>
                <td>{a.refreshes}</td>
                <Cell best={isBestAll(i, 'orphans')}>{a.orphans}</Cell>
                <Cell best={isBestAll(i, 'invalid')}>{a.invalid}</Cell>
              </tr>
            ))}
          </tfoot>
        )}
      </table>
      <p className="cmp__note">
        <span className="cmp__best cmp__legend-best">Highlighted</span>: the best value of its column among one trace’s replays{overAll.length > 0 ? ' (and among the all-traces rows)' : ''}; ↓ lower is better, ↑ higher is better. A column where every row is the same has no highlight.
      </p>
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
