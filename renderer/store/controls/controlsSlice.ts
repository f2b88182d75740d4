import type { Action } from '../actions';

/** The outcome of the last control used on one thing (an item, an agent, the run). */
export interface ControlOutcome {
  status: 'pending' | 'ok' | 'error';
  /** What was asked, e.g. "pin", and what came back: the result line or the host's error. */
  label: string;
  message: string;
}

export interface ControlsState {
  /** By target key: `item:<id>`, `agent:<id>`, `run`. */
  byKey: Record<string, ControlOutcome>;
}

export const controlsInitialState: ControlsState = { byKey: {} };

/** Key of the outcome shown beside an item. */
export const itemKey = (itemId: string) => `item:${itemId}`;
/** Key of the outcome shown on an agent's header. */
export const agentKey = (agentId: string) => `agent:${agentId}`;
export const RUN_KEY = 'run';

export function reduceControls(state: ControlsState, action: Action): ControlsState {
  switch (action.type) {
    case 'control.pending':
      return { byKey: { ...state.byKey, [action.key]: { status: 'pending', label: action.label, message: `${action.label}…` } } };
    case 'control.done':
      return { byKey: { ...state.byKey, [action.key]: { status: 'ok', label: action.label, message: action.message } } };
    case 'control.failed':
      return { byKey: { ...state.byKey, [action.key]: { status: 'error', label: action.label, message: action.message } } };
    case 'control.dismiss': {
      if (!state.byKey[action.key]) return state;
      const byKey = { ...state.byKey };
      delete byKey[action.key];
      return { byKey };
    }
    default:
      return state;
  }
}
