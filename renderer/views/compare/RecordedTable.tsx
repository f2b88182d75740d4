import type { RecordedTraceDto, TraceDto } from '../../../engine/contract';
import { percent, usd } from '../../components/format';
import { STRATEGY_LABEL } from './strategies';

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** A signed fraction as a percent with one decimal: 0.031 -> "+3.1%", -0.126 -> "−12.6%" (a true minus sign); null -> "—". */
export function signedPercent(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return '—';
  const digits = Math.abs(x * 100).toFixed(1);
  // A tiny negative error rounds to zero: no minus sign on "0.0%".
  return `${x < 0 && Number(digits) !== 0 ? '−' : '+'}${digits}%`;
}

/**
 * What the provider billed the real recording agents, per trace that records its usage, and for
 * each baseline that ran (the agent as recorded, the no-limit full history) how the cache model
 * prices it over the same steps and how far it lands from the recording, with how the fixed
 * prefix was obtained: the figures `strata compare` prints under its table.
 */
export function RecordedTable({ recorded, traces }: { recorded: readonly RecordedTraceDto[]; traces: readonly TraceDto[] }) {
  const names = new Map(traces.map((t) => [t.id, t.name]));
  const missingBaseline = recorded.some((r) => r.asRecorded === null);

  return (
    <div className="cmp__table-wrap" tabIndex={0} role="group" aria-label="Recorded usage table (scrolls sideways when narrow)">
      <table className="cmp__table" aria-label="Recorded by the provider">
        <thead>
          <tr>
            <th scope="colgroup" colSpan={8} className="cmp__group">
              recorded (provider)
            </th>
            <th scope="colgroup" colSpan={4} className="cmp__group cmp__sep">
              as recorded (cache model)
            </th>
            <th scope="colgroup" colSpan={2} className="cmp__group cmp__sep">
              full history (cache model)
            </th>
            <th scope="col" rowSpan={2} className="cmp__sep">
              fixed prefix
            </th>
          </tr>
          <tr>
            <th scope="col">trace</th>
            <th scope="col">model</th>
            <th scope="col">calls</th>
            <th scope="col">prompt tokens</th>
            <th scope="col">uncached</th>
            <th scope="col">hit rate</th>
            <th scope="col">total USD</th>
            <th scope="col" title="Reads of what the same agent had already read and seen">
              re-reads
            </th>
            <th scope="col" className="cmp__sep">
              cache model
            </th>
            <th scope="col">prompt tokens</th>
            <th scope="col">prompt error</th>
            <th scope="col">cache-read error</th>
            <th scope="col" className="cmp__sep">
              prompt tokens
            </th>
            <th scope="col">prompt error</th>
          </tr>
        </thead>
        <tbody>
          {recorded.map((r) => {
            const m = r.asRecorded;
            const f = r.fullHistory;
            return (
              <tr key={r.traceId} data-trace={r.traceId}>
                <th scope="row">{names.get(r.traceId) ?? r.traceId}</th>
                <td>{r.model ?? '—'}</td>
                <td>{int(r.calls)}</td>
                <td>{int(r.promptTokens)}</td>
                <td>{int(r.uncachedTokens)}</td>
                <td title={r.writesMissing ? 'No cache writes recorded: a bound' : undefined}>
                  {r.writesMissing ? '*' : ''}
                  {percent(r.hitRate)}
                </td>
                <td>{usd(r.costUsd)}</td>
                <td>{int(r.rereads)}</td>
                <td className="cmp__sep">{(m ?? f)?.provider ?? '—'}</td>
                <td title={m ? `over ${int(m.matched)} matched steps` : undefined}>{m ? int(m.promptTokens) : '—'}</td>
                <td>{signedPercent(m?.promptError ?? null)}</td>
                <td>{signedPercent(m?.cacheReadError ?? null)}</td>
                <td className="cmp__sep" title={f ? `over ${int(f.matched)} matched steps` : undefined}>
                  {f ? int(f.promptTokens) : '—'}
                </td>
                <td>{signedPercent(f?.promptError ?? null)}</td>
                <td className="cmp__sep" title={r.prefix?.note}>
                  {r.prefix ? `${r.prefix.estimated ? 'estimated' : 'recorded'} · scale ${r.prefix.tokenScale.toFixed(2)}` : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="cmp__note">
        Recorded: what the provider billed the real agents (subagents included); total USD is that usage, output included, at the recorded model’s list price (1-hour cache writes at the 1-hour rate
        where the recording splits them; “—”: no list price for the model); re-reads are the reads of a file (and range) the same agent had already read and seen, with no edit of it by that agent
        between, a sign of lost context (after a compaction, say). As recorded: the agent as it ran, its compactions followed and context clearing inferred where the billed prompt fell; full
        history: no limit. Both are priced over the same steps by the cache model of the recording’s provider (else the comparison’s), with the fixed prefix every row sends (the recorded system prompt
        and tools, or a stand-in calibrated on the first call, marked estimated) and the token scale fitted on the recording; errors are (model − recorded) / recorded. Hover a prefix cell for how it was
        obtained.
      </p>
      {recorded.some((r) => r.writesMissing) && (
        <p className="cmp__note">
          * Cache reads but no cache writes from a provider that bills them (Claude) or an unnamed model: the recorder likely left the writes out, so that hit rate and uncached figure are
          bounds, not what was billed.
        </p>
      )}
      {missingBaseline && (
        <p className="cmp__note">Add “{STRATEGY_LABEL.as_recorded}” to the strategies to see how close the cache model comes to the recording.</p>
      )}
    </div>
  );
}
