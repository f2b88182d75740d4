import { useRef, useState } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { RUN_KEY } from '../../store/controls/controlsSlice';
import { selectActiveRun } from '../../store/runs/runsSelectors';
import { selectControl } from '../../store/controls/controlsSelectors';
import { Outcome } from './Outcome';
import { ProjectRunNote, selectProjectFolder } from './ProjectRunNote';
import { StartModelRun } from './StartModelRun';

/**
 * The run bar: the active run's status, turns and agents as they move, with start, pause or resume,
 * step and stop (which asks first: it cannot be undone). In a project folder it opens the form that
 * starts a model run in place of the demo's Start (`[run-model-form]`).
 */
export function RunBar() {
  const [askStop, setAskStop] = useState(false);
  const [modelForm, setModelForm] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const run = useStrata(selectActiveRun);
  const selected = useStrata((s) => s.ui.selectedAgentId);
  const pending = useStrata((s) => selectControl(s, RUN_KEY)?.status === 'pending');
  const controller = useController();
  const projectFolder = useStrata(selectProjectFolder);
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
      <button
        className="btn"
        disabled={pending || Boolean(active) || projectFolder}
        onClick={() => void controller.startRun()}
        title={projectFolder ? 'A project folder does not play the demo: New model run… starts a run of its own' : 'Start the demo run (stop the active run first)'}
      >
        ▶ Start
      </button>
      {projectFolder && (
        <button
          ref={opener}
          className="btn"
          disabled={pending || Boolean(active)}
          aria-expanded={modelForm}
          onClick={() => setModelForm(!modelForm)}
          title={active ? 'Stop the active run first' : 'Start a run of this folder through a provider: provider, model and task'}
        >
          New model run…
        </button>
      )}
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
      <button className="btn" disabled={pending || !active} onClick={() => setAskStop(true)} aria-expanded={askStop} title="End the run (asks first)">
        ■ Stop
      </button>
      {askStop && run && active && (
        <div
          className="confirm runbar__confirm"
          role="alertdialog"
          aria-label={`Stop run ${run.runId}?`}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setAskStop(false);
          }}
        >
          <p className="confirm__question">
            <b>Stop run {run.runId}?</b> The turn in flight is cancelled and commits nothing, and its {run.agents} agent{run.agents === 1 ? '' : 's'} take no more turns. A stopped run does not resume: Start begins a new one.
          </p>
          <div className="confirm__actions">
            <button
              className="btn btn--small btn--danger"
              autoFocus
              onClick={() => {
                setAskStop(false);
                void controller.stopRun(run.runId);
              }}
            >
              Stop the run
            </button>
            <button className="btn btn--small" onClick={() => setAskStop(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <Outcome target={RUN_KEY} className="runbar__outcome" />
      {selected && run && <span className="runbar__hint">{run.label}</span>}
      {projectFolder && !run && !modelForm && <ProjectRunNote onStartModelRun={() => setModelForm(true)} />}
      {projectFolder && modelForm && !active && (
        <StartModelRun
          onClose={() => {
            setModelForm(false);
            opener.current?.focus();
          }}
          onStarted={() => setModelForm(false)}
        />
      )}
    </div>
  );
}
