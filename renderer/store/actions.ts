import type { AgentDetailDto, AgentDto, HealthDto, StrataEvent } from '../../engine/contract';
import type { ConnectionStatus } from '../api/wsBridge';
import type { Transport } from '../api/pickBridge';
import type { ViewName } from './uiSlice';
import type { AgentViewAction } from './agentViewActions';
import type { UsageAction } from './usageActions';
import type { CompareMemoryAction } from './compareMemoryActions';
import type { SessionsAction } from './sessionsActions';

/** Everything that can change the store: host events, snapshots from commands, and UI intents. */
export type Action =
  | { type: 'event'; event: StrataEvent }
  /** Host events that arrived together, applied in order as one store change (one render). */
  | { type: 'events'; events: StrataEvent[] }
  | { type: 'agents.snapshot'; agents: AgentDto[] }
  | { type: 'agent.detail'; detail: AgentDetailDto }
  | { type: 'agent.select'; agentId: string | null }
  | { type: 'view.select'; view: ViewName }
  /** Open or close the purge-memory confirmation (the Memory view's button or the desktop menu). */
  | { type: 'purge.dialog'; open: boolean }
  | { type: 'tree.toggle'; agentId: string }
  | { type: 'tree.filter'; text: string }
  | { type: 'connection.status'; status: ConnectionStatus; transport?: Transport }
  | { type: 'connection.health'; health: HealthDto }
  | { type: 'connection.error'; message: string }
  | AgentViewAction
  | UsageAction
  | CompareMemoryAction
  | SessionsAction;
