import type { Action } from './actions';

export interface UiState {
  selectedAgentId: string | null;
  /** Collapsed tree nodes. */
  collapsed: Record<string, true>;
  filter: string;
}

export const uiInitialState: UiState = { selectedAgentId: null, collapsed: {}, filter: '' };

export function reduceUi(state: UiState, action: Action): UiState {
  switch (action.type) {
    case 'agent.select':
      return { ...state, selectedAgentId: action.agentId };
    case 'tree.toggle': {
      const collapsed = { ...state.collapsed };
      if (collapsed[action.agentId]) delete collapsed[action.agentId];
      else collapsed[action.agentId] = true;
      return { ...state, collapsed };
    }
    case 'tree.filter':
      return { ...state, filter: action.text };
    default:
      return state;
  }
}
