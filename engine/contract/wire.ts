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

/** Path of the WebSocket endpoint. */
export const wirePath = '/ws';

/**
 * The subprotocol of this wire format: a client offers it, and the server selects it (and only
 * it), so the token below is never echoed back.
 */
export const WIRE_PROTOCOL = 'strata.v1';

/**
 * A client presents the per-launch token as a second subprotocol, `strata.token.<token>`, never
 * in the URL: a browser prints a failed WebSocket's URL in its console, and a URL lands in logs.
 */
export const TOKEN_PROTOCOL_PREFIX = 'strata.token.';
