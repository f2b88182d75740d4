import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { ExchangeSink, GatewayDecision, GatewayHandler, GatewayRequestIn } from '../../../engine/gateway/types';
import { type GatewayServerOptions, startGatewayServer } from '../../../engine/node/gateway/startGatewayServer';

/**
 * Real sockets on loopback for the gateway's tests: a tiny upstream per test that records every
 * request's raw bytes and answers as the test scripts it, a handler that records what the gateway
 * showed it, and a raw HTTP client (node:http, so the test controls every header, `Host` included).
 */

interface UpstreamRequest {
  method: string;
  path: string;
  rawHeaders: string[];
  body: Buffer;
}

export interface TestUpstream {
  port: number;
  base: string;
  requests: UpstreamRequest[];
  /** Resolves when the upstream's next request has arrived whole. */
  nextRequest(): Promise<UpstreamRequest>;
}

type Respond = (req: UpstreamRequest, res: ServerResponse, raw: IncomingMessage) => void;

/** A plain answer: 200 JSON echoing the path. */
const okJson: Respond = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, path: req.path }));
};

export async function startUpstream(respond: Respond = okJson): Promise<TestUpstream> {
  const requests: UpstreamRequest[] = [];
  let waiting: ((r: UpstreamRequest) => void)[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req = { method: raw.method!, path: raw.url!, rawHeaders: raw.rawHeaders, body: Buffer.concat(chunks) };
      requests.push(req);
      const w = waiting;
      waiting = [];
      for (const f of w) f(req);
      respond(req, res, raw);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onTestFinished(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, base: `http://127.0.0.1:${port}`, requests, nextRequest: () => new Promise((r) => waiting.push(r)) };
}

/** A port nothing listens on (a server opened and closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export type SinkEvent =
  | { kind: 'start'; status: number; headers: Readonly<Record<string, string>> }
  | { kind: 'chunk'; chunk: Buffer }
  | { kind: 'end'; error?: string };

/** A sink that records its calls, and resolves `ended` on its first end. */
export function recordingSink(log?: string[]): ExchangeSink & { events: SinkEvent[]; ended: Promise<string | undefined>; text(): string } {
  const events: SinkEvent[] = [];
  let onEnd: (e: string | undefined) => void = () => undefined;
  const ended = new Promise<string | undefined>((r) => (onEnd = r));
  return {
    events,
    ended,
    text: () => Buffer.concat(events.flatMap((e) => (e.kind === 'chunk' ? [e.chunk] : []))).toString('utf8'),
    upstreamStart(status, headers) {
      log?.push('start');
      events.push({ kind: 'start', status, headers });
    },
    upstreamChunk(chunk) {
      log?.push('chunk');
      events.push({ kind: 'chunk', chunk: Buffer.from(chunk) });
    },
    upstreamEnd(outcome) {
      log?.push('end');
      events.push(outcome.error === undefined ? { kind: 'end' } : { kind: 'end', error: outcome.error });
      onEnd(outcome.error);
    },
  };
}

export interface RecordingHandler extends GatewayHandler {
  seen: GatewayRequestIn[];
  failures: { request: GatewayRequestIn; error: unknown }[];
  /** One recording sink per handled request, in order (the default decision hands it to the server). */
  sinks: ReturnType<typeof recordingSink>[];
}

/** A handler that records what it was shown; `decide` defaults to forwarding the original with a recording sink. */
export function recordingHandler(decide?: (request: GatewayRequestIn, sink: ReturnType<typeof recordingSink>) => GatewayDecision): RecordingHandler {
  const handler: RecordingHandler = {
    seen: [],
    failures: [],
    sinks: [],
    handle(request) {
      handler.seen.push(request);
      const sink = recordingSink();
      handler.sinks.push(sink);
      return decide ? decide(request, sink) : { kind: 'forward', body: 'original', sink };
    },
    failed(request, error) {
      handler.failures.push({ request, error });
    },
  };
  return handler;
}

/** Starts a gateway for one test (closed when it ends). */
export async function startTestGateway(options: GatewayServerOptions) {
  const gateway = await startGatewayServer(options);
  onTestFinished(() => gateway.close());
  return gateway;
}

export interface ClientResponse {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The response ended cleanly (false: the connection was cut before its end). */
  complete: boolean;
}

export interface ClientRequest {
  method?: string;
  path: string;
  /** Raw header list, sent as given (`Host` too when present). */
  headers?: string[];
  body?: Buffer | string;
}

/** Sends one request over a fresh connection and collects the whole answer, or how it was cut. */
export function send(port: number, r: ClientRequest): Promise<ClientResponse> {
  // Node adds no Host to a raw header list: the gateway's own address unless the test names one.
  const headers = rawHeader(r.headers ?? [], 'host') === undefined ? ['Host', `127.0.0.1:${port}`, ...(r.headers ?? [])] : (r.headers ?? []);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: r.method ?? 'POST', path: r.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = () => resolve({ status: res.statusCode!, statusMessage: res.statusMessage!, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks), complete: res.complete });
      res.on('end', done);
      res.on('error', () => undefined);
      res.on('close', () => {
        if (!res.complete) done();
      });
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

/** Raw header list as `name → values` pairs without the ones a hop sets itself. */
export function endToEndHeaders(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (lower !== 'host' && lower !== 'connection') out.push([raw[i]!, raw[i + 1]!]);
  }
  return out;
}

/** The value of a header in a raw list (first occurrence). */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}
