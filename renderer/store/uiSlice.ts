import type { AgentStatus } from '../../engine/contract';
import type { Action } from './actions';

/** The main area's views; the agent tree stays on the left in every one. */
export const VIEWS = ['agent', 'charts', 'compare', 'memory', 'skills', 'events'] as const;
export type ViewName = (typeof VIEWS)[number];

export interface UiState {
  view: ViewName;
  selectedAgentId: string | null;
  /** Collapsed tree nodes. */
  collapsed: Record<string, true>;
  filter: string;
  /** Statuses the tree shows; empty shows every status. */
  statusFilter: AgentStatus[];
}

export const uiInitialState: UiState = { view: 'agent', selectedAgentId: null, collapsed: {}, filter: '', statusFilter: [] };

export function reduceUi(state: UiState, action: Action): UiState {
  switch (action.type) {
    case 'agent.select':
      return { ...state, selectedAgentId: action.agentId };
    case 'view.select':
      return state.view === action.view ? state : { ...state, view: action.view };
    case 'tree.toggle': {
      const collapsed = { ...state.collapsed };
      if (collapsed[action.agentId]) delete collapsed[action.agentId];
      else collapsed[action.agentId] = true;
      return { ...state, collapsed };
    }
    case 'tree.filter':
      return { ...state, filter: action.text };
    case 'tree.statusFilter':
      return { ...state, statusFilter: [...action.statuses] };
    default:
      return state;
  }
}
