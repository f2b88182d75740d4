import type { GatewaySessionDto } from '../../../engine/contract';
import { percent, tokens, usd } from '../../components/format';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import { billedPromptTokens, selectGatewayDetail, selectGatewayThread, selectThreadRows } from '../../store/gateway/gatewaySelectors';
import { GatewayCalls } from './GatewayCalls';
import { GatewayGenerations } from './GatewayGenerations';
import { GatewayRequestViewer } from './GatewayRequestViewer';
import { count } from './gatewayText';

/** The selected session: its observe/manage switch, its thread tree, and the chosen thread's calls and generations. */
export function GatewaySessionDetail() {
  const selectedId = useStrata((s) => s.gateway.selectedId);
  const detail = useStrata(selectGatewayDetail);
  const error = useStrata((s) => s.gateway.detailError);
  const thread = useStrata(selectGatewayThread);
  if (!selectedId) return null;
  return (
    <section className="gw__panel" aria-label={`Gateway session ${selectedId}`}>
      {error && (
        <p className="gw__error" role="alert">
          {error}
        </p>
      )}
      {!detail ? (
        !error && <p className="muted">Loading session {selectedId}…</p>
      ) : (
        <>
          <div className="gw__statusLine">
            <h3 className="gw__h">
              {detail.session.client ?? 'unknown client'} · <code>{detail.session.id}</code>
            </h3>
            {detail.session.clientSessionId && <span className="muted">client session {detail.session.clientSessionId}</span>}
            <span className="gw__spacer" />
            <ModeSwitch session={detail.session} />
          </div>
          <ThreadTree />
          {thread && <GatewayCalls thread={thread} />}
          {thread && <GatewayGenerations sessionId={detail.session.id} thread={thread} />}
          <GatewayRequestViewer />
        </>
      )}
    </section>
  );
}

function ModeSwitch({ session }: { session: GatewaySessionDto }) {
  const controller = useController();
  const busy = useStrata((s) => Boolean(s.gateway.busy[session.id]));
  const set = (mode: GatewaySessionDto['mode']) => {
    if (mode !== session.mode) void controller.setGatewayMode(session.id, mode);
  };
  return (
    <div className="gw__modeSwitch">
      <div className="seg" role="group" aria-label="Session mode">
        {(['observe', 'manage'] as const).map((m) => (
          <button key={m} type="button" className={`seg__btn${session.mode === m ? ' seg__btn--on' : ''}`} aria-pressed={session.mode === m} disabled={busy} onClick={() => set(m)}>
            {m === 'observe' ? 'Observe' : 'Manage'}
          </button>
        ))}
      </div>
      <span className="muted gw__note">{busy ? 'Switching…' : 'A switch applies from the session’s next call.'}</span>
    </div>
  );
}

function ThreadTree() {
  const rows = useStrata(selectThreadRows);
  const chosen = useStrata((s) => s.gateway.threadId);
  const dispatch = useDispatch();
  return (
    <ul className="gw__threads" aria-label="Threads">
      {rows.map(({ thread: t, depth }) => (
        <li key={t.id} style={{ paddingLeft: `${depth * 1.2}rem` }} className={t.id === chosen ? 'gw__thread gw__thread--on' : 'gw__thread'}>
          <button type="button" className="gw__threadPick" aria-pressed={t.id === chosen} onClick={() => dispatch({ type: 'gateway.selectThread', threadId: t.id })}>
            <b>{t.label}</b>
            <span className="muted">
              {count(t.totals.calls)} calls · {tokens(billedPromptTokens(t.totals.usage))} billed prompt · {usd(t.totals.costUsd)} · reuse {percent(t.totals.prefixReuse)}
              {t.generationsTotal > 0 ? ` · ${count(t.generationsTotal)} ${t.generationsTotal === 1 ? 'generation' : 'generations'}` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
