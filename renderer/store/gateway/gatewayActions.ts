import type { GatewaySessionDetailDto, GatewaySessionDto, GatewayStatusDto } from '../../../engine/contract';

/**
 * Actions of the gateway slice: the status (`getGateway`, `startGateway`, `stopGateway`), the
 * sessions it saw (`listGatewaySessions`), the selected session (`getGatewaySession`), its mode
 * and controls, and a managed call's request (`getGatewayRequest`). Each is a command's answer or
 * error as it came back; nothing here is an optimistic change.
 */
export type GatewayAction =
  | { type: 'gateway.loading' }
  | { type: 'gateway.loaded'; status: GatewayStatusDto; sessions: GatewaySessionDto[] }
  | { type: 'gateway.loadFailed'; message: string }
  /** A start or stop is in flight. */
  | { type: 'gateway.toggling' }
  | { type: 'gateway.toggled'; status: GatewayStatusDto; message: string }
  | { type: 'gateway.toggleFailed'; message: string }
  | { type: 'gateway.sessionsListed'; sessions: GatewaySessionDto[] }
  | { type: 'gateway.select'; sessionId: string | null }
  | { type: 'gateway.detail'; detail: GatewaySessionDetailDto }
  | { type: 'gateway.detailFailed'; sessionId: string; message: string }
  | { type: 'gateway.selectThread'; threadId: string }
  /** A mode switch or a pin/remove is in flight (`key` names it: the session id, or `thread:item`). */
  | { type: 'gateway.busy'; key: string }
  | { type: 'gateway.modeSet'; session: GatewaySessionDto; message: string }
  | { type: 'gateway.controlled'; key: string; threadId: string; pins: string[]; removals: string[]; message: string }
  | { type: 'gateway.changeFailed'; key: string; message: string }
  | { type: 'gateway.dismissNotice' }
  | { type: 'gateway.requestOpen'; callId: string }
  | { type: 'gateway.request'; callId: string; original: string; rewritten: string | null }
  | { type: 'gateway.requestFailed'; callId: string; message: string }
  | { type: 'gateway.requestClose' };

/** Host events the gateway slice reduces (the controller subscribes to them). */
export const GATEWAY_EVENTS = ['gateway.status', 'gateway.session', 'gateway.call'] as const;
