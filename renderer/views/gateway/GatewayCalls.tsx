import type { GatewayCallDto, GatewaySessionDetailDto } from '../../../engine/contract';
import { percent, tokens, usd } from '../../components/format';
import { useController } from '../../controller/StoreContext';
import { cacheWrites, newestCallsFirst } from '../../store/gateway/gatewaySelectors';
import { cacheBreakText, callOutcome, count, millis, timeAt } from './gatewayText';

type Thread = GatewaySessionDetailDto['threads'][number];

/** One thread's calls as the provider billed them, newest first. */
export function GatewayCalls({ thread }: { thread: Thread }) {
  const calls = newestCallsFirst(thread.calls);
  return (
    <section aria-label={`Calls of ${thread.label}`}>
      <h3 className="gw__h">
        Calls of {thread.label} <span className="muted">(newest first; the newest {count(thread.calls.length)} of {count(thread.totals.calls)} ended)</span>
      </h3>
      {calls.length === 0 ? (
        <p className="gw__empty">No calls kept for this thread.</p>
      ) : (
        <div className="gw__scroll" tabIndex={0} role="group" aria-label={`Calls table of ${thread.label}, scrolls sideways`}>
          <table className="gw__table" aria-label={`Calls of ${thread.label}`}>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col" className="num">Uncached</th>
                <th scope="col" className="num">Cache read</th>
                <th scope="col" className="num">Cache write 5m / 1h</th>
                <th scope="col" className="num">Output</th>
                <th scope="col" className="num">Money</th>
                <th scope="col" className="num">Prefix reuse</th>
                <th scope="col">Cache break</th>
                <th scope="col" className="num">First byte / duration</th>
                <th scope="col">Managed</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((c) => (
                <CallRow key={c.id} c={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CallRow({ c }: { c: GatewayCallDto }) {
  const controller = useController();
  const u = c.usage;
  const writes = u && cacheWrites(u);
  const failed = c.error !== undefined || (c.status !== undefined && c.status >= 400);
  return (
    <tr data-call-id={c.id}>
      <td>
        {timeAt(c.startedAt)}
        <span className="gw__sub">
          {c.model} · <span className={failed ? 'gw__bad' : undefined}>{callOutcome(c)}</span>
        </span>
      </td>
      <td className="num">{u ? tokens(u.input) : '—'}</td>
      <td className="num">{u ? tokens(u.cacheRead) : '—'}</td>
      <td className="num">{writes ? `${tokens(writes.m5)} / ${tokens(writes.h1)}` : '—'}</td>
      <td className="num">{u ? tokens(u.output) : '—'}</td>
      <td className="num">{c.costUsd !== undefined ? usd(c.costUsd) : '—'}</td>
      <td className="num">{percent(c.prefixReuse)}</td>
      <td className="gw__break" title={`${count(c.cacheBreak.unchangedBytes)} unchanged bytes before it`}>
        {cacheBreakText(c.cacheBreak)}
      </td>
      <td className="num">
        {millis(c.firstByteMs)} / {millis(c.durationMs)}
      </td>
      <td>
        <Managed c={c} />
      </td>
      <td>
        {c.hasRequest ? (
          <button type="button" className="btn btn--small" onClick={() => void controller.openGatewayRequest(c.id)} aria-label={`Show the original and rewritten request of the call at ${timeAt(c.startedAt)}`}>
            Original / Rewritten
          </button>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}

function Managed({ c }: { c: GatewayCallDto }) {
  const r = c.rewrite;
  if (!r && !c.fallback) return <span className="muted">{c.mode === 'manage' ? 'not rewritten' : 'observed'}</span>;
  return (
    <span className="gw__managed">
      {r && (
        <>
          gen {r.generation} · boundary {r.boundary ? 'yes' : 'no'} · {tokens(r.originalTokens)}→{tokens(r.rewrittenTokens)} tokens
        </>
      )}
      {c.fallback && <span className="gw__bad"> · sent unchanged: {c.fallback}</span>}
    </span>
  );
}
