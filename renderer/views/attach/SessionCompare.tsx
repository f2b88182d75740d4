import { useEffect, useMemo } from 'react';
import type { LiveSessionDto } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { baseName, tokens } from '../../components/format';
import { sessionStepRows } from '../../store/sessions/sessionFigures';
import { selectAttachedSession, selectSessionDetail, selectSessionDetailError } from '../../store/sessions/sessionsSelectors';
import { STRATEGY_LABEL } from '../compare/strategies';
import { REAL_COLOR, SessionCharts, STRATA_COLOR, type SeriesNames } from './SessionCharts';
import { SessionFiguresTable } from './SessionFiguresTable';
import '../compare/compare.css';
import './attach.css';

const strategyLabel = (strategy: string): string => (STRATEGY_LABEL as Record<string, string>)[strategy] ?? strategy;

/**
 * The legend names, so a recorded figure is never mistaken for a modelled one: the recording is
 * what the provider billed; Strata's is its cache model's pricing of its own replay.
 */
function seriesNames(session: Pick<LiveSessionDto, 'strategy' | 'budget'> & { provider?: 'openai' | 'anthropic' | undefined }): SeriesNames {
  const model = session.provider ? `${session.provider === 'openai' ? 'OpenAI' : 'Anthropic'} cache model` : 'cache model';
  return { real: 'recorded (provider)', strata: `Strata ${strategyLabel(session.strategy)} @ ${tokens(session.budget)} (${model})` };
}

/**
 * "Real vs Strata" for one attached session, from `getSession`: what the recording agent's provider
 * billed per step beside what Strata would have sent for the same events, as charts and a figures
 * table. The controller refetches it on the session's updates, at most twice a second, while shown.
 */
export function SessionCompare({ sessionId, chartWidth }: { sessionId: string; chartWidth?: number }) {
  const controller = useController();
  const detail = useStrata((s) => selectSessionDetail(s, sessionId));
  const error = useStrata((s) => selectSessionDetailError(s, sessionId));
  const live = useStrata((s) => selectAttachedSession(s, sessionId));

  useEffect(() => controller.watchSession(sessionId), [controller, sessionId]);

  const rows = useMemo(() => (detail ? sessionStepRows(detail) : []), [detail]);
  const session = detail?.session ?? live;
  // Kept while the strategy and budget stay, so the memoized charts do not redraw for a new names object.
  const strategy = session?.strategy;
  const budget = session?.budget;
  const provider = session?.shadow?.provider;
  const names = useMemo(() => (strategy !== undefined && budget !== undefined ? seriesNames({ strategy, budget, provider }) : null), [strategy, budget, provider]);

  return (
    <section className="session-cmp" aria-label={`Real vs Strata · ${sessionId}`}>
      <header className="session-cmp__head">
        <h3 className="session-cmp__title">Real vs Strata · {sessionId}</h3>
        {session && (
          <span className="muted" title={session.path}>
            {baseName(session.path)} · {session.model ?? 'model unknown'} · {session.status}
          </span>
        )}
      </header>
      {names && (
        <ul className="session-cmp__key" aria-label="Series">
          <li>
            <i className="session-cmp__swatch" style={{ borderColor: REAL_COLOR }} aria-hidden="true" />
            <b>{names.real}</b>: the tokens the recording agent's provider billed, read from the session file.
          </li>
          <li>
            <i className="session-cmp__swatch session-cmp__swatch--dashed" style={{ borderColor: STRATA_COLOR }} aria-hidden="true" />
            <b>{names.strata}</b>: Strata's replay of the same events, priced by the provider cache model.
          </li>
          <li className="muted">
            Dotted lines: <span style={{ color: REAL_COLOR }}>compact</span> where the recording agent compacted its context ({detail?.compactions.length ?? 0}), <span style={{ color: STRATA_COLOR }}>g2, g3…</span> where Strata's replay began a new
            generation ({detail?.generations.length ?? 0}; ⟳ a refresh, + a rebuild).
          </li>
        </ul>
      )}
      {error && (
        <p className="attach__error" role="alert">
          {error}
        </p>
      )}
      {!detail && !error && (
        <p className="empty" role="status">
          Loading the series of {sessionId}…
        </p>
      )}
      {detail && session && names && (
        <>
          {!session.shadow && <p className="attach__note">{session.shadowError ? `Strata's replay failed: ${session.shadowError}` : "Strata's first replay has not finished yet: only the recorded series is drawn."}</p>}
          {rows.length === 0 ? <p className="empty">No step with recorded usage yet.</p> : <SessionCharts sessionId={sessionId} rows={rows} names={names} marks={detail} width={chartWidth} />}
          <SessionFiguresTable detail={detail} names={names} />
        </>
      )}
    </section>
  );
}
