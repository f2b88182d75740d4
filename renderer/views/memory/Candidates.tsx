import { useEffect } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { selectSelectedSessionId } from '../../store/sessions/sessionsSelectors';
import { ReadOnlyNote } from '../agent/ReadOnlyNote';

/** Items of an agent's current generation that could become project memory, each with "Promote to memory". */
export function Candidates() {
  const controller = useController();
  const selected = useStrata((s) => s.ui.selectedAgentId);
  const candidates = useStrata((s) => s.memory.candidates);
  const entries = useStrata((s) => s.memory.entries);
  const busy = useStrata((s) => s.memory.busy);
  const entryError = useStrata((s) => s.memory.entryError);
  const sessionId = useStrata(selectSelectedSessionId);

  useEffect(() => {
    if (selected) void controller.loadCandidates(selected);
  }, [controller, selected]);

  const promoted = new Set(entries.flatMap((e) => (e.provenance.itemId ? [e.provenance.itemId] : [])));
  const agentId = candidates?.agentId ?? selected;
  return (
    <section className="mem__cands" aria-label="Candidates from this run">
      <div className="mem__cands-head">
        <h3>Candidates from this run{agentId ? ` · ${agentId}` : ''}</h3>
        <button type="button" className="mem__btn mem__btn--small" disabled={!selected} onClick={() => selected && void controller.loadCandidates(selected)}>
          Refresh
        </button>
      </div>
      {!selected && <p className="empty">Select an agent in the tree to see its findings.</p>}
      {sessionId && <ReadOnlyNote sessionId={sessionId} inline />}
      {candidates?.error && <p className="mem__muted">No generation to read: {candidates.error}</p>}
      {candidates && !candidates.error && candidates.items.length === 0 && <p className="empty">This agent’s context holds no finding or task state to promote.</p>}
      {candidates && candidates.items.length > 0 && (
        <ul className="mem__cand-list">
          {candidates.items.map((item) => (
            <li key={item.id} className="mem__cand" data-item-id={item.id}>
              <span className="mem__kind">{item.kind}</span>
              <span className="mem__cand-title" title={item.content}>
                {item.title}
              </span>
              {promoted.has(item.id) ? (
                <span className="mem__muted">in memory</span>
              ) : sessionId ? null : (
                <button type="button" className="mem__btn mem__btn--small" disabled={Boolean(busy[item.id])} onClick={() => void controller.promoteCandidate(item.id)} aria-label={`Promote ${item.title} to memory`}>
                  Promote to memory
                </button>
              )}
              {entryError?.id === item.id && (
                <span className="mem__error" role="alert">
                  {entryError.message}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
