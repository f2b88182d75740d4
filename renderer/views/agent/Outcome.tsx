import { useStrata } from '../../controller/StoreContext';
import { selectControl } from '../../store/controls/controlsSelectors';
import type { ControlOutcome } from '../../store/controls/controlsSlice';

/**
 * The outcome of the last control on one target: a status line while pending or after success, an
 * alert with the host's message after a failure. Nothing when no control was used.
 */
export function Outcome({ target, className = '' }: { target: string; className?: string }) {
  const outcome = useStrata((s) => selectControl(s, target));
  return <OutcomeLine outcome={outcome} className={className} />;
}

/** `Outcome` for a list that selects the outcomes once (hundreds of rows, one store subscription). */
export function OutcomeLine({ outcome, className = '' }: { outcome: ControlOutcome | undefined; className?: string }) {
  if (!outcome) return null;
  const role = outcome.status === 'error' ? 'alert' : 'status';
  return (
    <span className={`outcome outcome--${outcome.status} ${className}`} role={role} data-outcome={outcome.status}>
      {outcome.message}
    </span>
  );
}
