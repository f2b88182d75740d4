import { useController, useStrata } from '../../controller/StoreContext';
import { RUN_KEY } from '../../store/controls/controlsSlice';
import { selectActiveRun } from '../../store/runs/runsSelectors';
import { selectControl } from '../../store/controls/controlsSelectors';
import { Outcome } from './Outcome';

/** The run bar: the active run's status, turns and agents as they move, with start, pause or resume, step and stop. */
export function RunBar() {
  const run = useStrata(selectActiveRun);
  const selected = useStrata((s) => s.ui.selectedAgentId);
  const pending = useStrata((s) => selectControl(s, RUN_KEY)?.status === 'pending');
  const controller = useController();
  const active = run && (run.status === 'running' || run.status === 'paused' || run.status === 'idle');
  return (
    <div className="runbar" role="group" aria-label="Run controls">
      <span className="runbar__label">
        {run ? (
          <>
            <b>{run.runId}</b> <span className={`runbar__status runbar__status--${run.status}`} data-run-status={run.status}>{run.status}</span> · turn {run.turns} · {run.agents} {run.agents === 1 ? 'agent' : 'agents'}
          </>
        ) : (
          'No run yet'
        )}
      </span>
      <button className="btn" disabled={pending || Boolean(active)} onClick={() => void controller.startRun()} title="Start the demo run (stop the active run first)">
        ▶ Start
      </button>
      {run?.status === 'paused' ? (
        <button className="btn btn--primary" disabled={pending} onClick={() => void controller.resumeRun(run.runId)} title="Tick again from where the run paused">
          ▶ Resume
        </button>
      ) : (
        <button className="btn" disabled={pending || run?.status !== 'running'} onClick={() => run && void controller.pauseRun(run.runId)} title="Stop ticking; the turn in flight finishes">
          ❚❚ Pause
        </button>
      )}
      <button className="btn" disabled={pending || !active} onClick={() => run && void controller.stepRun(run.runId)} title="Run exactly one turn now">
        Step
      </button>
      <button className="btn" disabled={pending || !active} onClick={() => run && void controller.stopRun(run.runId)}>
        ■ Stop
      </button>
      <Outcome target={RUN_KEY} className="runbar__outcome" />
      {selected && run && <span className="runbar__hint">{run.label}</span>}
    </div>
  );
}
