import { useController, useStrata } from '../../controller/StoreContext';
import { tokens } from '../../components/format';
import { selectTimeline, selectViewedNumber } from '../../store/generations/generationsSelectors';
import { utcMinute } from './provenance';

/** Every generation of the agent, oldest first: boundary kind, reason and the refresh line. */
export function GenerationTimeline({ onOpen }: { onOpen?: (tab: 'context' | 'diff') => void }) {
  const entries = useStrata(selectTimeline);
  const viewed = useStrata(selectViewedNumber);
  const controller = useController();
  if (entries.length === 0) return <p className="empty">No generations yet.</p>;
  return (
    <ol className="timeline" aria-label="Generations timeline">
      {entries.map((e, i) => (
        <li key={e.generation} className={`timeline__entry timeline__entry--${e.kind}`} data-generation={e.generation}>
          <span className="timeline__dot" aria-hidden="true" />
          <div className="timeline__body">
            <div className="timeline__head">
              <b>g{e.generation}</b> <span className={`tag tag--${e.kind}`}>{e.kind}</span>
              {e.startedAt !== null && <span className="muted">{utcMinute(e.startedAt)}</span>}
              {e.tokens !== null && e.budget !== null && (
                <span className="muted">
                  {tokens(e.tokens)} / {tokens(e.budget)}
                </span>
              )}
              <button className="link" onClick={() => {
                  onOpen?.('context');
                  void controller.viewGeneration(e.generation);
                }} aria-pressed={viewed === e.generation}>
                inspect
              </button>
              {i > 0 && (
                <button className="link" onClick={() => {
                    onOpen?.('diff');
                    void controller.diffGenerations((entries[i - 1] as { generation: number }).generation, e.generation);
                  }}>
                  diff with g{(entries[i - 1] as { generation: number }).generation}
                </button>
              )}
            </div>
            <div className="timeline__text">{e.text}</div>
          </div>
        </li>
      ))}
    </ol>
  );
}
