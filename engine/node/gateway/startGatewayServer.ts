import { Agent as HttpAgent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { GatewayDecision, GatewayHandler, GatewayProvider, GatewayRequestIn } from '../../gateway/types';
import { type Clock, systemClock } from '../../ports/Clock';
import { decodeBody } from './contentEncoding';
import { forwardExchange, type Upstream } from './forwardExchange';
import { headerRecord, upstreamRequestHeaders } from './gatewayHeaders';
import { DEFAULT_UPSTREAMS, parseUpstream, routeOf, upstreamPath } from './gatewayRoutes';
import { guardSink } from './guardedSink';
import { loopbackRefusal } from './loopbackGuard';
import { type GatewayErrorReply, providerError } from './providerError';
import { readRequestBody } from './readRequestBody';

export interface GatewayServerOptions {
  /** The pure side: decides on each model call (`GatewayHandler`). */
  handler: GatewayHandler;
  /** Port on 127.0.0.1; 0 (the default) takes any free one. */
  port?: number;
  /** Base URL per provider, as that provider's SDK takes it (`[gateway-routes]`); defaults to the real providers. */
  upstreams?: Partial<Record<GatewayProvider, string>>;
  /** Largest request body, raw and decoded (default 32 MiB, Anthropic's own limit). */
  maxBodyBytes?: number;
  /** Longest silence of an upstream connection (default 10 minutes): then the exchange ends as a `timeout`. */
  upstreamIdleTimeoutMs?: number;
  clock?: Clock;
}

export interface GatewayServer {
  /** `http://127.0.0.1:<port>`: the base URL to give a client (`ANTHROPIC_BASE_URL`; `<origin>/v1` for OpenAI's). */
  origin: string;
  port: number;
  /** Stops listening and ends every open exchange and upstream connection. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`gateway: ${name} must be a whole number above 0 (got ${value})`);
  return value;
}

/**
 * Starts the gateway's HTTP server on 127.0.0.1 (issue 23): every request is checked
 * (`[gateway-loopback]`), read whole (`[gateway-body-limit]`), shown to the handler when it is a
 * model call (`[gateway-routes]`, `[gateway-decode]`, `[gateway-key-private]`) and forwarded as
 * the handler decides (`[gateway-passthrough]`, `[gateway-rewrite]`, `[gateway-engine-fallback]`),
 * the answer streamed back (`[gateway-stream]`, `[gateway-faults]`, `[gateway-sink]`). Bad options
 * throw before anything listens.
 */
export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const { handler } = options;
  const clock = options.clock ?? systemClock;
  const maxBodyBytes = positiveInteger('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
  const idleTimeoutMs = positiveInteger('upstreamIdleTimeoutMs', options.upstreamIdleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`gateway: port must be 0-65535 (got ${port})`);
  const upstreams = {} as Record<GatewayProvider, Upstream>;
  for (const provider of ['anthropic', 'openai'] as const) {
    const url = parseUpstream(provider, options.upstreams?.[provider] ?? DEFAULT_UPSTREAMS[provider]);
    upstreams[provider] = { url, agent: url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }) };
  }

  const reportFailure = (request: GatewayRequestIn, error: unknown) => {
    try {
      handler.failed(request, error);
    } catch {
      // The handler's own error report failed: there is nowhere left to record it.
    }
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const route = routeOf(method, path, req.headers['anthropic-version'] !== undefined);
    const refusal = loopbackRefusal(req.headers.host, req.headers.origin);
    if (refusal) return answer(res, providerError(route.provider, 'forbidden', refusal), true, req);
    const read = await readRequestBody(req, maxBodyBytes, () => clock.now());
    if (read.kind === 'aborted') return;
    if (read.kind === 'too_large') return answer(res, tooLarge(route.provider, maxBodyBytes), true, req);
    const raw = read.body;
    const upstream = upstreams[route.provider];
    const forward = (body: Uint8Array, rewritten: boolean, decision?: Extract<GatewayDecision, { kind: 'forward' }>, request?: GatewayRequestIn) => {
      const afterForward = decision?.afterForward;
      const sink = guardSink(decision?.sink, clock, (error) => request && reportFailure(request, error), afterForward !== undefined);
      forwardExchange({
        upstream,
        provider: route.provider,
        method,
        path: upstreamPath(upstream.url, route.provider, path),
        headers: upstreamRequestHeaders(req.rawHeaders, upstream.url.host, body.byteLength, rewritten),
        body,
        clientRes: res,
        sink,
        idleTimeoutMs,
        onSent: () => {
          try {
            afterForward?.();
          } catch (error) {
            if (request) reportFailure(request, error);
          }
          sink.release();
        },
      });
    };
    if (!route.handled) return forward(raw, false);

    const decoded = await decodeBody(raw, req.headers['content-encoding'], maxBodyBytes);
    if (decoded.kind === 'too_large') return answer(res, tooLarge(route.provider, maxBodyBytes), false, req);
    // A body that did not decode is handed over raw, its content-encoding kept so the handler can tell.
    const changed = decoded.kind === 'decoded' && decoded.changed;
    const request: GatewayRequestIn = {
      method,
      path,
      headers: headerRecord(req.rawHeaders, { omitCredentials: true, omit: changed ? ['content-encoding', 'content-length'] : [] }),
      body: decoded.kind === 'decoded' ? decoded.body : raw,
      receivedAt: read.receivedAt,
    };
    let decision: GatewayDecision;
    try {
      decision = checkedDecision(handler.handle(request));
    } catch (error) {
      reportFailure(request, error);
      return forward(raw, false);
    }
    if (decision.kind === 'reply') {
      const sink = guardSink(decision.sink, clock, (error) => reportFailure(request, error), false);
      const headers = { 'content-type': decision.contentType, 'content-length': String(Buffer.byteLength(decision.body)) };
      sink.start(decision.status, headers);
      sink.chunk(Buffer.from(decision.body));
      answer(res, decision, false, req);
      sink.end();
      return;
    }
    if (decision.body === 'original') forward(raw, false, decision, request);
    else forward(decision.body, true, decision, request);
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // Only a fault of the server's own code reaches here; the client must not hang on it.
      if (!res.headersSent) answer(res, providerError(routeOf(req.method ?? 'GET', req.url ?? '/', req.headers['anthropic-version'] !== undefined).provider, 'upstream_unreachable', `The Strata gateway failed: ${(error as Error).message}`), true, req);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const u of Object.values(upstreams)) u.agent.destroy();
      }),
  };
}

function tooLarge(provider: GatewayProvider, maxBodyBytes: number): GatewayErrorReply {
  return providerError(provider, 'too_large', `Request exceeds the maximum allowed number of bytes (${maxBodyBytes}).`);
}

/** A reply the gateway writes itself; `close` ends the connection (the client may still be sending a body nobody reads). */
function answer(res: ServerResponse, reply: { status: number; contentType: string; body: string }, close: boolean, req: IncomingMessage): void {
  const headers: Record<string, string> = { 'content-type': reply.contentType, 'content-length': String(Buffer.byteLength(reply.body)) };
  if (close) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  res.end(reply.body);
  // Whatever of the body is still coming is read and dropped, so the client gets to read the answer.
  req.resume();
}

/** A decision the server can carry out, else a throw (handled as the handler's failure: the original goes upstream). */
function checkedDecision(decision: GatewayDecision): GatewayDecision {
  const d = decision as Partial<GatewayDecision> | undefined;
  if (d?.kind === 'forward' && (d.body === 'original' || d.body instanceof Uint8Array)) return decision;
  if (d?.kind === 'reply' && Number.isInteger(d.status) && d.status! >= 200 && d.status! <= 599 && typeof d.contentType === 'string' && typeof d.body === 'string') return decision;
  throw new Error(`the handler returned an invalid decision (${JSON.stringify(d)?.slice(0, 200)})`);
}
