import { useController, useStrata } from '../controller/StoreContext';
import { isDisconnected } from '../store/connection/connectionSlice';

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

/**
 * The disconnected state, over the views: what happened to the host, what the views now show, and
 * what to do. A drop retries by itself (same address and token); a refused token needs the new
 * address the restarted host printed (`[host-lost]`).
 */
export function ConnectionBanner() {
  const c = useStrata((s) => s.connection);
  const controller = useController();
  if (!isDisconnected(c)) return null;
  const where = c.address ? `the Strata host at ${c.address}` : 'the Strata host';
  const refused = c.status === 'refused';
  return (
    <div className={`conn-banner conn-banner--${c.status}`} role="alert" aria-labelledby="conn-banner-title" data-conn-banner={c.status}>
      <div className="conn-banner__text">
        <strong id="conn-banner-title">{refused ? `${capital(where)} refused this page's token` : c.wasOpen ? `Lost the connection to ${where}` : `Cannot reach ${where}`}</strong>
        {refused ? (
          <p>
            The host was restarted and has a new address with a new token. Open the address it printed in its terminal
            (<code>Strata control room (…): http://127.0.0.1:…/?token=…</code>). The desktop app reloads itself. The views
            below show what they held when the connection dropped.
          </p>
        ) : (
          <p>
            {c.wasOpen ? 'The views below are frozen at what they showed when it dropped. ' : ''}
            Reconnecting by itself{c.retryInMs !== null ? ` (next attempt in ${seconds(c.retryInMs)})` : ''}. If the host was
            stopped, start it again (<code>npm run web</code> or <code>strata</code>); if it restarts with a new address, this
            page says so.
          </p>
        )}
      </div>
      <button className="btn conn-banner__retry" onClick={() => controller.reconnect()}>
        {refused ? 'Try this address again' : 'Reconnect now'}
      </button>
    </div>
  );
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
