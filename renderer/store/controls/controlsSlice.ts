import type { AgentImpactDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { AskedControl } from './controlsActions';

/** The outcome of the last control used on one thing (an item, an agent, the run). */
export interface ControlOutcome {
  status: 'pending' | 'ok' | 'error';
  /** What was asked, e.g. "pin", and what came back: the result line or the host's error. */
  label: string;
  message: string;
}

/** An item control waiting for the operator's yes, with the host's preview of what it does (`[change-preview]`). */
export interface PendingConfirm {
  itemId: string;
  change: AskedControl;
  /** The item's title, for the question. */
  title: string;
  status: 'loading' | 'ready' | 'error';
  agents: AgentImpactDto[];
  error: string | null;
}

export interface ControlsState {
  /** By target key: `item:<id>`, `agent:<id>`, `run`. */
  byKey: Record<string, ControlOutcome>;
  /** At most one control asks at a time; asking another replaces it. */
  confirm: PendingConfirm | null;
}

export const controlsInitialState: ControlsState = { byKey: {}, confirm: null };

const sameAsk = (c: PendingConfirm | null, a: { itemId: string; change: AskedControl }) => c !== null && c.itemId === a.itemId && c.change === a.change;

/** Key of the outcome shown beside an item. */
export const itemKey = (itemId: string) => `item:${itemId}`;
/** Key of the outcome shown on an agent's header. */
export const agentKey = (agentId: string) => `agent:${agentId}`;
export const RUN_KEY = 'run';

export function reduceControls(state: ControlsState, action: Action): ControlsState {
  switch (action.type) {
    case 'control.pending':
      return { ...state, byKey: { ...state.byKey, [action.key]: { status: 'pending', label: action.label, message: `${action.label}…` } } };
    case 'control.done':
      return { ...state, byKey: { ...state.byKey, [action.key]: { status: 'ok', label: action.label, message: action.message } } };
    case 'control.failed':
      return { ...state, byKey: { ...state.byKey, [action.key]: { status: 'error', label: action.label, message: action.message } } };
    case 'control.dismiss': {
      if (!state.byKey[action.key]) return state;
      const byKey = { ...state.byKey };
      delete byKey[action.key];
      return { ...state, byKey };
    }
    case 'control.ask':
      return { ...state, confirm: { itemId: action.itemId, change: action.change, title: action.title, status: 'loading', agents: [], error: null } };
    case 'control.preview':
      return sameAsk(state.confirm, action) ? { ...state, confirm: { ...(state.confirm as PendingConfirm), status: 'ready', agents: action.agents, error: null } } : state;
    case 'control.previewFailed':
      return sameAsk(state.confirm, action) ? { ...state, confirm: { ...(state.confirm as PendingConfirm), status: 'error', error: action.message } } : state;
    // A question belongs to the agent view it was asked in.
    case 'agent.select':
      return state.confirm === null ? state : { ...state, confirm: null };
    case 'control.askClose':
      return state.confirm === null ? state : { ...state, confirm: null };
    default:
      return state;
  }
}
