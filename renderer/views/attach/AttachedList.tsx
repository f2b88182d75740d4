import type { LiveSessionDto } from '../../../engine/contract';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import { baseName, percent, tokens } from '../../components/format';
import { selectAttachedError, selectAttachedList, selectDetaching, selectMainAgentKnown, selectSelectedSessionId, selectSessionDone, selectSessionsNotice } from '../../store/sessions/sessionsSelectors';
import { STATUS_NOTE } from './attachForm';

/**
 * The attached sessions: the file's state and the host's message, lines and events read, and the
 * hit rates so far; choosing one shows its main agent (whose id is the session id) in the agent view.
 * The last attach or detach answer shows above the list.
 */
export function AttachedList() {
  const sessions = useStrata(selectAttachedList);
  const error = useStrata(selectAttachedError);
  const notice = useStrata(selectSessionsNotice);
  const detaching = useStrata(selectDetaching);
  const selectedSession = useStrata(selectSelectedSessionId);
  const controller = useController();
  const dispatch = useDispatch();

  const show = (id: string, known: boolean) => {
    if (!known) {
      dispatch({ type: 'sessions.notice', status: 'error', message: `${id}'s agents are not in the tree yet: they appear once the host has read the session's first lines.` });
      return;
    }
    dispatch({ type: 'view.select', view: 'agent' });
    void controller.select(id);
  };

  return (
    <div className="attach__attached">
      {notice && (
        <p className={`attach__notice attach__notice--${notice.status}`} role={notice.status === 'error' ? 'alert' : 'status'}>
          <span>{notice.message}</span>
          <button type="button" className="link attach__dismiss" onClick={() => dispatch({ type: 'sessions.dismissNotice' })} aria-label="Dismiss the message">
            ✕
          </button>
        </p>
      )}
      {error && (
        <p className="attach__error" role="alert">
          {error}
        </p>
      )}
      {sessions.length > 0 && (
        <ul className="attach__list" aria-label="Attached sessions">
          {sessions.map((s) => (
            <AttachedRow key={s.sessionId} s={s} selected={s.sessionId === selectedSession} detaching={Boolean(detaching[s.sessionId])} onShow={show} onDetach={(id) => void controller.detachSession(id)} />
          ))}
        </ul>
      )}
    </div>
  );
}

function AttachedRow({ s, selected, detaching, onShow, onDetach }: { s: LiveSessionDto; selected: boolean; detaching: boolean; onShow(id: string, known: boolean): void; onDetach(id: string): void }) {
  const shadow = s.shadow;
  const known = useStrata((st) => selectMainAgentKnown(st, s.sessionId));
  const done = useStrata((st) => selectSessionDone(st, s.sessionId));
  return (
    <li className={`attach__item${selected ? ' attach__item--selected' : ''}`} data-session-id={s.sessionId} aria-current={selected ? 'true' : undefined}>
      <button type="button" className="attach__pick" onClick={() => onShow(s.sessionId, known)} title={s.path} aria-label={`Show ${s.sessionId} (${baseName(s.path)}) in the agent view`}>
        <span className="attach__sessionLine">
          <b className="attach__id">{s.sessionId}</b>
          <span className="attach__file">{baseName(s.path)}</span>
          <span className={`attach__status attach__status--${s.status}`} data-status={s.status} title={STATUS_NOTE[s.status]}>
            {s.status}
          </span>
          {done && (
            <span className="attach__status attach__status--done" data-status="done" title="The session's last turn ended and its file has gone quiet; a new line makes it run again">
              done
            </span>
          )}
        </span>
        {s.message && <span className="attach__meta">{s.message}</span>}
        <span className="attach__meta">
          {s.lines.toLocaleString('en-US')} lines · {s.events.toLocaleString('en-US')} events · Strata {s.strategy} @ {tokens(s.budget)}
        </span>
        <span className="attach__meta">
          hit recorded {percent(s.real.hitRate)} · Strata {shadow ? percent(shadow.hitRate) : 'replaying…'}
          {shadow && shadow.replayedEvents < s.events ? ` (replayed ${shadow.replayedEvents.toLocaleString('en-US')} of ${s.events.toLocaleString('en-US')} events)` : ''}
        </span>
        {s.shadowError && <span className="attach__meta attach__meta--bad">Strata's replay failed: {s.shadowError}</span>}
      </button>
      <button type="button" className="btn btn--small btn--danger" disabled={detaching} onClick={() => onDetach(s.sessionId)} aria-label={`Detach ${s.sessionId}`}>
        {detaching ? 'Detaching…' : 'Detach'}
      </button>
    </li>
  );
}
