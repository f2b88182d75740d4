import type { IdSource } from '../ports/IdSource';
import { Utf8StreamDecoder } from '../text/Utf8StreamDecoder';
import { apiOfPath } from './apiOfPath';
import { BlockHashMemo } from './BlockHashMemo';
import { bytesOf } from './cacheBreak';
import { CallExchange, type GatewayCallUpdate } from './CallExchange';
import { GatewaySessions } from './GatewaySessions';
import { isParseFailure, parseRequest } from './parseRequest';
import type { GatewayApi, GatewayCall, GatewayDecision, GatewayHandler, GatewayRequestIn } from './types';

/**
 * The gateway's observe mode (`[gateway-observe]`): every request goes upstream as the client's
 * own bytes (`body: 'original'`), and `handle` does nothing but pick the API from the path and
 * make the exchange's sink, so no request waits on the gateway's reading of it. Parsing, hashing
 * and the session/thread assignment run in `afterForward`, which the server calls once the
 * request went upstream; the call is then announced live (`started`, `usage`, `ended`).
 *
 * Nothing is dropped without a reason (`[gateway-observe-unparsed]`): a body that cannot be read,
 * or an engine fault while reading it, still went upstream unchanged and is reported through
 * `onUnobserved` with why; `counts()` says how many requests came, went upstream, were observed,
 * were not (and why) and were passed through as no model call (another path or method).
 */

interface ObserveCounts {
  received: number;
  forwarded: number;
  /** Model calls recorded as a GatewayCall. */
  observed: number;
  /** Model calls forwarded unchanged whose body could not be read. */
  unparsed: number;
  /** Requests on which the gateway's own code failed (forwarded unchanged). */
  failed: number;
  /** Requests that are no model call (another path or method), forwarded unobserved. */
  passedThrough: number;
  /** Forwarded requests whose reading (`afterForward`) has not run yet. */
  pending: number;
}

/** A request that went upstream unchanged but could not be observed, and why. */
export interface UnobservedRequest {
  kind: 'unparsed' | 'failed';
  at: number;
  method: string;
  path: string;
  api?: GatewayApi;
  bytes: number;
  reason: string;
}

export interface ObserveHandlerOptions {
  ids: IdSource;
  onCall: (update: GatewayCallUpdate) => void;
  onUnobserved?: (request: UnobservedRequest) => void;
  sessions?: GatewaySessions;
  /** UTF-8 text of a request body; the Node server passes its native decoder (the default is the pure `Utf8StreamDecoder`, about ten times slower). */
  decodeUtf8?: (bytes: Uint8Array) => string;
}

export interface ObserveHandler extends GatewayHandler {
  counts(): ObserveCounts;
  readonly sessions: GatewaySessions;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createObserveHandler(options: ObserveHandlerOptions): ObserveHandler {
  const sessions = options.sessions ?? new GatewaySessions({ ids: options.ids });
  const memo = new BlockHashMemo();
  const decode = options.decodeUtf8 ?? ((bytes: Uint8Array) => new Utf8StreamDecoder().decode(bytes));
  const counts: ObserveCounts = { received: 0, forwarded: 0, observed: 0, unparsed: 0, failed: 0, passedThrough: 0, pending: 0 };

  const unobserved = (kind: UnobservedRequest['kind'], request: GatewayRequestIn, reason: string, api?: GatewayApi) => {
    counts[kind]++;
    const record: UnobservedRequest = { kind, at: request.receivedAt, method: request.method, path: request.path, bytes: request.body.length, reason };
    if (api !== undefined) record.api = api;
    options.onUnobserved?.(record);
  };

  const observe = (request: GatewayRequestIn, api: GatewayApi, sink: CallExchange) => {
    const parsed = parseRequest(api, request.headers, decode(request.body), memo);
    if (isParseFailure(parsed)) return unobserved('unparsed', request, parsed.failure, api);
    const a = sessions.assign(parsed);
    const call: GatewayCall = {
      id: options.ids.next('gwc'),
      sessionId: a.session.id,
      threadId: a.thread.id,
      api,
      model: parsed.model,
      mode: 'observe',
      startedAt: request.receivedAt,
      prefixReuse: a.prefixReuse,
      promptBytes: bytesOf(parsed.blocks),
      cacheBreak: a.cacheBreak,
    };
    counts.observed++;
    sink.attach(call, a.session, a.thread, options.onCall);
  };

  return {
    sessions,
    counts: () => ({ ...counts }),
    handle(request: GatewayRequestIn): GatewayDecision {
      counts.received++;
      counts.forwarded++;
      const api = apiOfPath(request.method, request.path);
      if (api === undefined) {
        counts.passedThrough++;
        return { kind: 'forward', body: 'original' };
      }
      const sink = new CallExchange(api, request.receivedAt);
      counts.pending++;
      let ran = false;
      const afterForward = () => {
        if (ran) return;
        ran = true;
        counts.pending--;
        try {
          observe(request, api, sink);
        } catch (error) {
          unobserved('failed', request, `the gateway failed reading it: ${messageOf(error)}`, api);
        }
      };
      return { kind: 'forward', body: 'original', sink, afterForward };
    },
    failed(request: GatewayRequestIn, error: unknown): void {
      // `handle` counts a request received and forwarded first thing, so a throw after that is only a failure more.
      unobserved('failed', request, `the gateway failed on it: ${messageOf(error)}`, apiOfPath(request.method, request.path));
    },
  };
}
