import type { Action } from './actions';
import { type AgentsState, agentsInitialState, reduceAgents } from './agentsSlice';
import { type ConnectionState, connectionInitialState, reduceConnection } from './connectionSlice';
import { type LogState, logInitialState, reduceLog } from './logSlice';
import { type UiState, reduceUi, uiInitialState } from './uiSlice';

export interface RootState {
  agents: AgentsState;
  log: LogState;
  ui: UiState;
  connection: ConnectionState;
}

export const initialRootState: RootState = {
  agents: agentsInitialState,
  log: logInitialState,
  ui: uiInitialState,
  connection: connectionInitialState,
};

/** The one pure reducer: every slice sees every action; untouched slices keep their identity. */
export function reduce(state: RootState, action: Action): RootState {
  const next: RootState = {
    agents: reduceAgents(state.agents, action),
    log: reduceLog(state.log, action),
    ui: reduceUi(state.ui, action),
    connection: reduceConnection(state.connection, action),
  };
  return next.agents === state.agents && next.log === state.log && next.ui === state.ui && next.connection === state.connection ? state : next;
}
