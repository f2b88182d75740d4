import { useState } from 'react';
import type { GatewayStatusDto } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { selectGatewayLoad, selectGatewayStatus } from '../../store/gateway/gatewaySelectors';

type Mode = GatewayStatusDto['mode'];

/** A port field's text as a port: empty is none (the workspace's or any free one); anything but 0…65535 is an error in words. */
export function parsePort(text: string): { port?: number; error?: string } {
  const t = text.trim();
  if (t === '') return {};
  if (!/^\d+$/.test(t) || Number(t) > 65535) return { error: `The port must be a whole number from 0 to 65535 (got "${t}"); leave it empty for the usual one.` };
  return { port: Number(t) };
}

/** The gateway's status and its Start/Stop toggle, and while it runs the lines that point each client at it. */
export function GatewayStatusPanel() {
  const status = useStrata(selectGatewayStatus);
  const { load, loadError } = useStrata(selectGatewayLoad);
  const toggling = useStrata((s) => s.gateway.toggling);
  const controller = useController();
  const [portText, setPortText] = useState('');
  const [mode, setMode] = useState<Mode | null>(null);
  const port = parsePort(portText);

  if (!status) {
    return (
      <section className="gw__panel" aria-label="Gateway status">
        {loadError ? (
          <p className="gw__error" role="alert">
            {loadError}
          </p>
        ) : (
          <p className="muted">{load === 'loading' ? 'Loading the gateway…' : 'The gateway’s status has not loaded yet.'}</p>
        )}
      </section>
    );
  }
  const chosenMode = mode ?? status.mode;
  return (
    <section className="gw__panel" aria-label="Gateway status">
      <div className="gw__statusLine">
        <h2 className="gw__title">Gateway</h2>
        <span className={`gw__state gw__state--${status.running ? 'on' : 'off'}`} data-running={status.running}>
          {status.running ? 'running' : 'stopped'}
        </span>
        {status.origin && <code className="gw__origin">{status.origin}</code>}
        <span className="muted">new sessions: {status.mode} mode</span>
        <span className="gw__spacer" />
        {status.running ? (
          <button type="button" className="btn btn--danger" disabled={toggling} onClick={() => void controller.stopGateway()}>
            {toggling ? 'Stopping…' : 'Stop gateway'}
          </button>
        ) : (
          <form
            className="gw__start"
            aria-label="Start the gateway"
            onSubmit={(e) => {
              e.preventDefault();
              if (port.error) return;
              void controller.startGateway({ ...(port.port !== undefined ? { port: port.port } : {}), mode: chosenMode });
            }}
          >
            <label className="gw__field">
              <span className="muted">Port</span>
              <input className="input gw__port" inputMode="numeric" placeholder="usual" value={portText} aria-invalid={Boolean(port.error)} aria-describedby={port.error ? 'gw-port-error' : undefined} onChange={(e) => setPortText(e.target.value)} />
            </label>
            <label className="gw__field">
              <span className="muted">New sessions</span>
              <select className="input" value={chosenMode} onChange={(e) => setMode(e.target.value as Mode)}>
                <option value="observe">observe</option>
                <option value="manage">manage</option>
              </select>
            </label>
            <button type="submit" className="btn btn--primary" disabled={toggling || Boolean(port.error)}>
              {toggling ? 'Starting…' : 'Start gateway'}
            </button>
          </form>
        )}
      </div>
      {port.error && !status.running && (
        <p className="gw__error" id="gw-port-error" role="alert">
          {port.error}
        </p>
      )}
      <p className="gw__upstreams muted">
        Anthropic calls go to <code>{status.upstreams.anthropic}</code>, OpenAI calls to <code>{status.upstreams.openai}</code>, each with the client’s own key, which the gateway never stores or shows.
      </p>
      {status.problem && (
        <p className="gw__error" role="alert">
          {status.problem}
        </p>
      )}
      {status.running ? (
        <ClientLines lines={status.clients} />
      ) : (
        <p className="gw__empty">
          The gateway is stopped. Start it here, or from a terminal with <code>npx strata gateway</code> (which also opens this control room); then point Claude Code, Codex or an SDK at it with the lines shown here.
        </p>
      )}
    </section>
  );
}

function ClientLines({ lines }: { lines: GatewayStatusDto['clients'] }) {
  return (
    <ul className="gw__clients" aria-label="Point a client at the gateway">
      {lines.map((l) => (
        <ClientLine key={`${l.client} ${l.where}`} line={l} />
      ))}
    </ul>
  );
}

function ClientLine({ line }: { line: GatewayStatusDto['clients'][number] }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(line.text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <li className="gw__client">
      <div className="gw__clientHead">
        <b>{line.client}</b>
        <span className="muted">{line.where}</span>
        <button type="button" className="btn btn--small" onClick={() => void copy()} aria-label={`Copy the ${line.client} line`}>
          Copy
        </button>
        {copied && (
          <span className={copied === 'yes' ? 'gw__ok' : 'gw__bad'} role="status">
            {copied === 'yes' ? 'Copied.' : 'The clipboard refused: select the text and copy it.'}
          </span>
        )}
      </div>
      <pre className="gw__pre">{line.text}</pre>
    </li>
  );
}
