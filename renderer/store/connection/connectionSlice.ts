import type { HealthDto } from '../../../engine/contract';
import type { Transport } from '../../api/pickBridge';
import type { ConnectionStatus } from '../../api/wsBridge';
import type { Action } from '../actions';

export interface ConnectionState {
  status: ConnectionStatus;
  transport: Transport | null;
  health: HealthDto | null;
  /** The last failure worth showing, cleared when the connection opens again. */
  error: string | null;
}

export const connectionInitialState: ConnectionState = { status: 'connecting', transport: null, health: null, error: null };

export function reduceConnection(state: ConnectionState, action: Action): ConnectionState {
  switch (action.type) {
    case 'connection.status':
      return {
        ...state,
        status: action.status,
        transport: action.transport ?? state.transport,
        error: action.status === 'open' ? null : state.error,
      };
    case 'connection.health':
      return { ...state, health: action.health };
    case 'connection.error':
      return { ...state, error: action.message };
    default:
      return state;
  }
}
