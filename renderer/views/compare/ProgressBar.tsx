/** A comparison's replays done out of all, as a labelled progress bar. */
export function ProgressBar({ done, total, status }: { done: number; total: number; status: 'running' | 'finished' | 'failed' | 'cancelled' }) {
  const ratio = total > 0 ? done / total : 0;
  const label =
    status === 'running' ? `Replaying: ${done} of ${total} replays done` : status === 'finished' ? `Finished: ${total} replays` : status === 'cancelled' ? `Cancelled after ${done} of ${total} replays` : `Failed after ${done} of ${total} replays`;
  return (
    <div className={`cmp__progress cmp__progress--${status}`}>
      <div role="progressbar" aria-label="Comparison progress" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} aria-valuetext={label} className="cmp__progress-track">
        <span className="cmp__progress-fill" style={{ width: `${Math.round(ratio * 100)}%` }} />
      </div>
      <span className="cmp__progress-label" aria-live="polite">
        {label}
      </span>
    </div>
  );
}
