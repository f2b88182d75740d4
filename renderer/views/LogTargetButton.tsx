import type { LogTarget } from '../store/log/logSelectors';
import type { OpenLogTarget } from './useOpenLogTarget';

/** What the button says it opens: the agent, and the generation when the line names one. */
const openLabel = (t: LogTarget) => `Open ${t.agentId}${t.generation !== null ? ` at generation ${t.generation}` : ''}`;

/**
 * The agent a log line or an event names, as a button to it: a click, Enter or Space opens the
 * agent at the generation the line names. The log strip and the Events view both use it.
 */
export function LogTargetButton({ target, open, className }: { target: LogTarget; open: OpenLogTarget; className?: string }) {
  const label = openLabel(target);
  return (
    <button type="button" className={className ? `log__open ${className}` : 'log__open'} onClick={() => void open(target)} aria-label={label} title={label}>
      <b>{target.agentId}</b>
    </button>
  );
}
