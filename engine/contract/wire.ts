import type { Envelope } from './errors';
import type { StrataEvent } from './events';

/**
 * The headless host's WebSocket protocol: JSON text frames. A client sends calls; the server
 * answers each with the call's `id` and pushes subscribed events. A frame the server cannot parse
 * is answered with `id: null` and an `invalid_args` envelope; the connection stays open.
 */
export interface WireCall {
  id: number;
  command: string;
  args?: unknown;
}

export type WireReply = { kind: 'result'; id: number | null; envelope: Envelope<unknown> } | { kind: 'event'; event: StrataEvent };

/** Path of the WebSocket endpoint; the per-launch token is its `token` query parameter. */
export const wirePath = '/ws';
