import type { HealthDto } from '../../../engine/contract';
import type { Transport } from '../../api/pickBridge';
import type { ConnectionStatus } from '../../api/wsBridge';

/** Actions of the connection slice: the transport's state (with the host's address, and when a drop retries), the host's health, the last failure. */
export type ConnectionAction =
  | { type: 'connection.status'; status: ConnectionStatus; transport?: Transport; address?: string; retryInMs?: number }
  | { type: 'connection.health'; health: HealthDto }
  | { type: 'connection.error'; message: string };
