import type { EventName } from '../contract';

/**
 * One connected view (an Electron window or a WebSocket client). The host pushes to a session only
 * the events it subscribed to; a session that fails to deliver is closed, never retried forever.
 */
export interface ClientSession {
  readonly id: number;
  subscriptions(): EventName[];
  /** Replace this session's subscriptions. */
  setSubscriptions(events: readonly EventName[]): void;
  /** Stop delivering events and forget the session. Idempotent. */
  close(): void;
  readonly closed: boolean;
}
