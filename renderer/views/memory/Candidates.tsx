import { useEffect } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { ageOf, differingSnippet, groupCandidates } from '../../store/memory/memorySelectors';
import { selectSelectedSessionId } from '../../store/sessions/sessionsSelectors';
import { ReadOnlyNote } from '../agent/ReadOnlyNote';

const SOURCE: Record<string, string> = {
  user_requirement: 'user requirement',
  verified_fact: 'verified fact',
  worker_finding: 'worker finding',
  unverified_hypothesis: 'hypothesis',
  generated_summary: 'summary',
  test_result: 'test result',
  repository_source: 'repository',
  parent_report: 'parent report',
  recalled_memory: 'recalled memory',
};

/**
 * Items of an agent's current generation that could become project memory, as a table (title,
 * kind, provenance, age) with identical items grouped into one row with their count; each row has
 * "Promote to memory" (the newest item of its group).
 */
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
  const groups = candidates ? groupCandidates(candidates.items) : [];
  const now = Date.now();
  return (
    <section className="mem__cands" aria-label="Candidates from this run">
      <div className="mem__cands-head">
        <h3>
          Candidates from this run{agentId ? ` · ${agentId}` : ''}
          {candidates && candidates.items.length > 0 && (
            <span className="mem__muted mem__cands-count">
              {' '}
              {groups.length} distinct{groups.length !== candidates.items.length ? ` of ${candidates.items.length} items` : ''}
            </span>
          )}
        </h3>
        <button type="button" className="mem__btn mem__btn--small" disabled={!selected} onClick={() => selected && void controller.loadCandidates(selected)}>
          Reload candidates
        </button>
      </div>
      {!selected && <p className="empty">Select an agent in the tree to see its findings.</p>}
      {sessionId && <ReadOnlyNote sessionId={sessionId} inline />}
      {candidates?.error && <p className="mem__muted">No generation to read: {candidates.error}</p>}
      {candidates && !candidates.error && candidates.items.length === 0 && <p className="empty">This agent’s context holds no finding or task state to promote.</p>}
      {groups.length > 0 && (
        <div className="mem__cand-scroll">
          <table className="mem__cand-table" aria-label="Candidates">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Kind</th>
                <th scope="col">Provenance</th>
                <th scope="col">Age</th>
                <th scope="col" className="mem__num">
                  Copies
                </th>
                <th scope="col" aria-label="Action" />
              </tr>
            </thead>
            <tbody>
              {groups.map(({ item, ids, count, lookalikes, differsAt }) => {
                const inMemory = ids.some((id) => promoted.has(id));
                const error = entryError && ids.includes(entryError.id) ? entryError : null;
                return (
                  <tr key={item.id} className="mem__cand" data-item-id={item.id} data-count={count}>
                    <td>
                      <div className="mem__cand-title">
                      <span title={item.content}>{item.title}</span>
                      {lookalikes > 0 && (
                        <span className="mem__lookalike">
                          {lookalikes === 1 ? 'Another row has' : `${lookalikes} other rows have`} this title with a different text; where this one differs:
                        </span>
                      )}
                      <span className="mem__cand-snippet">{lookalikes > 0 ? differingSnippet(item.content, differsAt) : item.content}</span>
                      {error && (
                        <span className="mem__error" role="alert">
                          {error.message}
                        </span>
                      )}
                      </div>
                    </td>
                    <td className="mem__kind">{item.kind}</td>
                    <td className="mem__cand-prov">
                      {SOURCE[item.provenance.source] ?? item.provenance.source} · {item.provenance.agentId}
                      {item.provenance.verified ? ' · verified' : ''}
                    </td>
                    <td className="mem__cand-age" title={new Date(item.provenance.at).toISOString()}>
                      {ageOf(item.provenance.at, now)}
                    </td>
                    <td className="mem__num">{count > 1 ? <span className="mem__count" aria-label={`${count} identical items`}>×{count}</span> : <span className="mem__muted">1</span>}</td>
                    <td className="mem__cand-act">
                      {inMemory ? (
                        <span className="mem__muted">in memory</span>
                      ) : sessionId ? null : (
                        <button type="button" className="mem__btn mem__btn--small" disabled={Boolean(busy[item.id])} onClick={() => void controller.promoteCandidate(item.id)} aria-label={`Promote ${item.title} to memory`}>
                          Promote
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
