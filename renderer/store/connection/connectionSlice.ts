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
  /** `host:port` of the host this page talks to (the web transport), for the disconnected banner. */
  address: string | null;
  /** While `closed`: when the next attempt is, in milliseconds. */
  retryInMs: number | null;
  /** The connection was open at least once on this page (a drop, not a host never reached). */
  wasOpen: boolean;
}

export const connectionInitialState: ConnectionState = { status: 'connecting', transport: null, health: null, error: null, address: null, retryInMs: null, wasOpen: false };

export function reduceConnection(state: ConnectionState, action: Action): ConnectionState {
  switch (action.type) {
    case 'connection.status':
      return {
        ...state,
        status: action.status,
        transport: action.transport ?? state.transport,
        address: action.address ?? state.address,
        retryInMs: action.status === 'closed' ? (action.retryInMs ?? null) : null,
        wasOpen: state.wasOpen || action.status === 'open',
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

/** True while the views cannot hear the host: dropped, retrying, or refused. */
export const isDisconnected = (c: ConnectionState): boolean => c.status === 'closed' || c.status === 'refused';
