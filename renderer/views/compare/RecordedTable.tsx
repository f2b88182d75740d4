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
 * What the provider billed the real recording agent, per trace that records its usage, and (when
 * the full-history baseline ran) how the cache model prices that baseline over the same steps and
 * how far it lands from the recording: the figures `strata compare` prints under its table.
 */
export function RecordedTable({ recorded, traces }: { recorded: readonly RecordedTraceDto[]; traces: readonly TraceDto[] }) {
  const names = new Map(traces.map((t) => [t.id, t.name]));
  const missingBaseline = recorded.some((r) => r.modelled === null);

  return (
    <div className="cmp__table-wrap" tabIndex={0} role="group" aria-label="Recorded usage table (scrolls sideways when narrow)">
      <table className="cmp__table" aria-label="Recorded by the provider">
        <thead>
          <tr>
            <th scope="colgroup" colSpan={7} className="cmp__group">
              recorded (provider)
            </th>
            <th scope="colgroup" colSpan={5} className="cmp__group cmp__sep">
              baseline (cache model)
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
            <th scope="col" className="cmp__sep">
              cache model
            </th>
            <th scope="col">prompt tokens</th>
            <th scope="col">hit rate</th>
            <th scope="col">prompt error</th>
            <th scope="col">cache-read error</th>
          </tr>
        </thead>
        <tbody>
          {recorded.map((r) => {
            const m = r.modelled;
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
                <td className="cmp__sep">{m ? m.provider : '—'}</td>
                <td title={m ? `over ${int(m.matched)} matched steps` : undefined}>
                  {m ? int(m.promptTokens) : '—'}
                </td>
                <td>{m ? percent(m.hitRate) : '—'}</td>
                <td>{signedPercent(m?.promptError ?? null)}</td>
                <td>{signedPercent(m?.cacheReadError ?? null)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="cmp__note">
        Recorded: what the provider billed the real agent for its main agent’s calls; total USD is that usage, output included, at the recorded model’s list price (1-hour cache writes at the 1-hour
        rate where the recording splits them; “—”: no list price for the model). Baseline (cache model): the full-history baseline priced over the same steps by the cache model of the recording’s provider (else the comparison’s); errors are
        (model − recorded) / recorded. The replay counts transcript text only, so real prompts (system prompt, tool schemas) are larger than the modelled ones: negative prompt errors of 10–40% are
        normal.
      </p>
      {recorded.some((r) => r.writesMissing) && (
        <p className="cmp__note">
          * Cache reads but no cache writes from a provider that bills them (Claude) or an unnamed model: the recorder likely left the writes out, so that hit rate and uncached figure are
          bounds, not what was billed.
        </p>
      )}
      {missingBaseline && (
        <p className="cmp__note">Add the full-history baseline (“{STRATEGY_LABEL.full_history_baseline}”) to the strategies to see how close the cache model comes to the recording.</p>
      )}
    </div>
  );
}
