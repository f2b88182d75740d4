import { useShallow } from 'zustand/react/shallow';
import { useStrata } from '../controller/StoreContext';
import { timeOfDay } from '../components/format';
import { selectLog } from '../store/log/logSelectors';

/** The newest workspace events, always in sight at the bottom. */
export function LogStrip() {
  const entries = useStrata(useShallow((s) => selectLog(s, 6)));
  return (
    <footer className="strip" aria-label="Event log">
      <ol className="log" aria-live="polite">
        {entries.map((e) => (
          <li key={e.seq} className={`log__line log__line--${e.level}`}>
            <time>{timeOfDay(e.at)}</time> {e.agentId && <b>{e.agentId}</b>} {e.message}
          </li>
        ))}
      </ol>
    </footer>
  );
}
