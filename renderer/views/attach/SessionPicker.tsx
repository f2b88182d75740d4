import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { SessionDto } from '../../../engine/contract';
import { ATTACH_BUDGET } from '../../../engine/shared/limits';
import { ENGINE_STRATEGIES } from '../../../engine/shared/strategyNames';
import { useController, useStrata } from '../../controller/StoreContext';
import type { EngineStrategy } from '../../controller/sessionsController';
import { fileSize } from '../../components/format';
import { selectAttachedList, selectAttaching, selectDiscovered, selectDiscoveredNewestFirst } from '../../store/sessions/sessionsSelectors';
import { STRATEGY_LABEL } from '../compare/strategies';
import { parseBudget, pickerState, startLabel, TOOL_LABEL } from './attachForm';

interface SessionPickerProps {
  id: string;
  strategy: EngineStrategy;
  budgetText: string;
  onStrategy(strategy: EngineStrategy): void;
  onBudget(text: string): void;
  onClose(): void;
}

/**
 * The session files the host found, newest first, each with "Attach"; a path field for any other
 * file; the strategy and budget the replay runs under. Lists on opening and on "Refresh list".
 * Escape closes it. Nothing changes until the host answers: the answer or its error shows in the rail.
 */
export function SessionPicker({ id, strategy, budgetText, onStrategy, onBudget, onClose }: SessionPickerProps) {
  const controller = useController();
  const discovered = useStrata(selectDiscovered);
  const sessions = useStrata(selectDiscoveredNewestFirst);
  const attaching = useStrata(selectAttaching);
  const attached = useStrata(selectAttachedList);
  const [path, setPath] = useState('');

  useEffect(() => {
    void controller.loadSessions();
  }, [controller]);

  const budget = parseBudget(budgetText);
  const busy = attaching !== null;
  const attachedAs = useMemo(() => {
    const byPath = new Map<string, string[]>();
    for (const s of attached) byPath.set(s.path, [...(byPath.get(s.path) ?? []), s.sessionId]);
    return byPath;
  }, [attached]);
  const attach = (file: string) => {
    if (budget.ok && !busy) void controller.attachSession({ path: file, strategy, budget: budget.budget });
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    onClose();
  };
  const loading = discovered.status === 'loading';

  return (
    <div id={id} className="attach__picker" role="region" aria-label="Attach a session" onKeyDown={onKey}>
      <div className="attach__settings">
        <label className="attach__field">
          <span className="attach__label">Strategy</span>
          <select className="input" value={strategy} onChange={(e) => onStrategy(e.target.value as EngineStrategy)}>
            {ENGINE_STRATEGIES.map((s) => (
              <option key={s} value={s}>
                {STRATEGY_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="attach__field">
          <span className="attach__label">Budget (tokens)</span>
          <input
            className="input attach__budget"
            type="number"
            inputMode="numeric"
            min={ATTACH_BUDGET.min}
            max={ATTACH_BUDGET.max}
            step={1000}
            value={budgetText}
            aria-invalid={!budget.ok}
            aria-describedby="attach-budget-help"
            onChange={(e) => onBudget(e.target.value)}
          />
        </label>
        <p id="attach-budget-help" className={budget.ok ? 'attach__note' : 'attach__error'}>
          {budget.ok ? 'Strata replays the session under this strategy and token budget; the recorded figures stay as they were billed.' : budget.message}
        </p>
      </div>

      <form
        className="attach__byPath"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) attach(path.trim());
        }}
      >
        <input className="input attach__pathInput" aria-label="Session file path" placeholder="/path/to/session.jsonl" value={path} onChange={(e) => setPath(e.target.value)} />
        <button type="submit" className="btn" disabled={!budget.ok || busy || path.trim() === ''}>
          Attach path
        </button>
      </form>

      <div className="attach__listHead">
        <h3 className="attach__title">Sessions on the host</h3>
        <button type="button" className="btn btn--small" onClick={() => void controller.loadSessions()} disabled={loading}>
          Refresh list
        </button>
      </div>
      {loading && (
        <p className="attach__note" role="status">
          Looking for Claude Code and Codex sessions…
        </p>
      )}
      {discovered.error && (
        <p className="attach__error" role="alert">
          {discovered.error}
        </p>
      )}
      {discovered.status === 'ready' && sessions.length === 0 && (
        <p className="empty attach__empty">
          {discovered.roots.length > 0 ? `No Claude Code or Codex sessions found in ${discovered.roots.join(', ')}.` : 'No Claude Code or Codex sessions found: the host has no session folders to search.'}
        </p>
      )}
      {sessions.length > 0 && (
        <ul className="attach__sessions" aria-label="Sessions on the host, newest first">
          {sessions.map((s) => (
            <SessionRow key={s.path} s={s} attachedAs={attachedAs.get(s.path)} disabled={!budget.ok || busy} pending={attaching === s.path} onAttach={attach} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SessionRow({ s, attachedAs, disabled, pending, onAttach }: { s: SessionDto; attachedAs: string[] | undefined; disabled: boolean; pending: boolean; onAttach(path: string): void }) {
  const when = startLabel(s);
  // Attached, the file's main agent (the first attachment whose agent has arrived) says what the host sees now.
  const attachedStatus = useStrata((st) => attachedAs?.map((id) => st.agents.byId[id]?.status).find((x) => x !== undefined));
  const state = pickerState(s, attachedStatus);
  return (
    <li className="attach__session" data-path={s.path} title={s.path}>
      <div className="attach__sessionMain">
        <span className="attach__sessionLine">
          <span className={`tag attach__tool attach__tool--${s.tool}`}>{TOOL_LABEL[s.tool]}</span>
          <b className="attach__project">{s.project}</b>
          {state === 'growing' && (
            <span className="tag tag--live" data-state="growing" title="Written to in the last minute: probably still running">
              growing
            </span>
          )}
          {state === 'done' && (
            <span className="tag tag--done" data-state="done" title="The session's last turn ended and its file has gone quiet; a new line makes it run again">
              done
            </span>
          )}
          {attachedAs && <span className="tag">attached as {attachedAs.join(', ')}</span>}
        </span>
        <span className="attach__meta">
          {s.model ?? 'model unknown'} · {when} · {fileSize(s.size)}
          {s.subagents > 0 && ` · ${s.subagents} subagent${s.subagents === 1 ? '' : 's'}`}
        </span>
      </div>
      <button type="button" className="btn btn--small" disabled={disabled} onClick={() => onAttach(s.path)} aria-label={`Attach ${TOOL_LABEL[s.tool]} session ${s.project}, ${when}`}>
        {pending ? 'Attaching…' : 'Attach'}
      </button>
    </li>
  );
}
