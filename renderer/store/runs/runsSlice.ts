import type { RunDto } from '../../../engine/contract';
import type { Action } from '../actions';

export interface RunsState {
  /** The host's runs, the active one first (as `listRuns` orders them). */
  list: RunDto[];
  loaded: boolean;
}

export const runsInitialState: RunsState = { list: [], loaded: false };

/** Runs from `listRuns`, kept current by `run.changed` (a run not seen yet goes first). */
export function reduceRuns(state: RunsState, action: Action): RunsState {
  if (action.type === 'runs.list') return { list: action.runs, loaded: true };
  if (action.type === 'run.result' || (action.type === 'event' && action.event.name === 'run.changed')) {
    const run = action.type === 'run.result' ? action.run : (action.event.payload as { run: RunDto }).run;
    const at = state.list.findIndex((r) => r.runId === run.runId);
    const list = at < 0 ? [run, ...state.list] : state.list.map((r, i) => (i === at ? run : r));
    return { ...state, list };
  }
  return state;
}
