import type { RunDto } from '../../../engine/contract';
import type { Action } from '../actions';

export interface RunsState {
  /** The host's runs, the active one first (as `listRuns` orders them). */
  list: RunDto[];
  loaded: boolean;
  /** How many new runs this page saw begin (`run.begun`); the controller reloads the run's views when it moves. */
  epoch: number;
}

export const runsInitialState: RunsState = { list: [], loaded: false, epoch: 0 };

const ended = (r: RunDto) => r.status === 'stopped' || r.status === 'finished';

/** The run a run action carries (`run.changed`, `run.progress`, a control's result), if any. */
export function runOf(action: Action): RunDto | undefined {
  if (action.type === 'run.result') return action.run;
  if (action.type === 'event' && (action.event.name === 'run.changed' || action.event.name === 'run.progress')) return action.event.payload.run;
  return undefined;
}

/**
 * True when `run` is a new run, not news of one already held: the page knew runs (so this is not
 * the first load) and `run` is active where the run held under its id had ended or began at another
 * time, or its id is new. A new run may reuse the ids of the run before (the demo starts over as
 * `demo` with the same agents), so the views must start over with it (`[run-follow]`).
 */
export function startsNewRun(state: RunsState, run: RunDto): boolean {
  if (!state.loaded || ended(run)) return false;
  const held = state.list.find((r) => r.runId === run.runId);
  if (!held) return state.list.length > 0;
  return ended(held) || held.startedAt !== run.startedAt;
}

/** Runs from `listRuns`, kept current by `run.changed` and `run.progress` (a run not seen yet goes first). */
export function reduceRuns(state: RunsState, action: Action): RunsState {
  if (action.type === 'runs.list') return { ...state, list: action.runs, loaded: true };
  if (action.type === 'run.begun') return { ...state, epoch: state.epoch + 1 };
  const run = runOf(action);
  if (!run) return state;
  const at = state.list.findIndex((r) => r.runId === run.runId);
  const list = at < 0 ? [run, ...state.list] : state.list.map((r, i) => (i === at ? run : r));
  return { ...state, list };
}
