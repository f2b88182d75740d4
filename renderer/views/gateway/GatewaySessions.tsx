import type { GatewaySessionDto } from '../../../engine/contract';
import { percent, tokens, usd } from '../../components/format';
import { useController, useStrata } from '../../controller/StoreContext';
import { billedPromptTokens, cacheReadShare, selectGatewaySessions, selectGatewayStatus } from '../../store/gateway/gatewaySelectors';
import { count, timeAt } from './gatewayText';

const SAVED_NOTE = 'Estimated: the prompt tokens manage mode kept from being billed, priced at the cache-read rate. The estimate can overstate what a session saved.';

/** The sessions the gateway saw, most recently active first, with their totals; choosing one shows it below. */
export function GatewaySessions() {
  const sessions = useStrata(selectGatewaySessions);
  const running = useStrata((s) => selectGatewayStatus(s)?.running ?? false);
  const selected = useStrata((s) => s.gateway.selectedId);
  const controller = useController();
  if (sessions.length === 0) {
    return (
      <section className="gw__panel" aria-label="Gateway sessions">
        <h3 className="gw__h">Sessions</h3>
        <p className="gw__empty">
          {running
            ? 'No sessions yet: point a client at the gateway with one of the lines above and its calls appear here as they happen.'
            : 'No sessions: start the gateway, then point a client at it.'}
        </p>
      </section>
    );
  }
  return (
    <section className="gw__panel" aria-label="Gateway sessions">
      <h3 className="gw__h">Sessions</h3>
      <div className="gw__scroll" tabIndex={0} role="group" aria-label="Sessions table, scrolls sideways">
        <table className="gw__table" aria-label="Gateway sessions">
          <thead>
            <tr>
              <th scope="col">Client · model</th>
              <th scope="col">Mode</th>
              <th scope="col" className="num">Threads</th>
              <th scope="col" className="num">Calls</th>
              <th scope="col" className="num" title="Uncached input, cache reads and cache writes, as the provider billed them">
                Billed prompt
              </th>
              <th scope="col" className="num">Cache read</th>
              <th scope="col" className="num">Money</th>
              <th scope="col" className="num">Prefix reuse</th>
              <th scope="col" className="num" title={SAVED_NOTE}>
                Saved so far (estimate)
              </th>
              <th scope="col">Last activity</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <SessionRow key={s.id} s={s} selected={s.id === selected} onSelect={() => void controller.selectGatewaySession(s.id)} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function SessionRow({ s, selected, onSelect }: { s: GatewaySessionDto; selected: boolean; onSelect(): void }) {
  const u = s.totals.usage;
  return (
    <tr className={selected ? 'gw__row--on' : undefined} data-session-id={s.id}>
      <td>
        <button type="button" className="link gw__pick" onClick={onSelect} aria-pressed={selected} aria-label={`Show session ${s.id} (${s.client ?? 'unknown client'})`}>
          {s.client ?? 'unknown client'}
        </button>
        <span className="gw__sub">
          {s.model} · {s.id}
        </span>
      </td>
      <td>
        <span className={`tag gw__mode--${s.mode}`}>{s.mode}</span>
      </td>
      <td className="num">{count(s.threads)}</td>
      <td className="num">
        {count(s.totals.calls)}
        {s.totals.errors > 0 && <span className="gw__bad"> ({count(s.totals.errors)} failed)</span>}
      </td>
      <td className="num">{tokens(billedPromptTokens(u))}</td>
      <td className="num">{percent(cacheReadShare(u))}</td>
      <td className="num">{usd(s.totals.costUsd)}</td>
      <td className="num">{percent(s.totals.prefixReuse)}</td>
      <td className="num" title={SAVED_NOTE}>
        {s.totals.managed > 0 ? `≈ ${usd(s.totals.savedUsd)}` : '—'}
      </td>
      <td>{timeAt(s.updatedAt)}</td>
    </tr>
  );
}
