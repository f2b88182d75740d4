import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_TRACE_CONTENT_BYTES, type StrataEvent, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL, type WireCall, type WireReply, wirePath } from '../../engine/contract';
import type { HostConnection } from '../../engine/host';
import { rendererCsp } from '../shared/csp';
import { readStatic } from './staticFiles';

export interface WebHostOptions {
  host: { connect(deliver: (event: StrataEvent) => void): HostConnection };
  /** The built renderer (`out/renderer`). */
  staticDir: string;
  /** 0 or absent: a random free port. */
  port?: number | undefined;
  /** Per-launch secret; generated when absent. */
  token?: string;
  /**
   * How long a dropped slow client gets to read up to its close frame before its socket is
   * destroyed (and what it had queued released). Default {@link CLOSE_GRACE_MS}.
   */
  closeGraceMs?: number;
  /** Told when a client is dropped for not reading its replies (the shell says so on stderr). */
  onClientDropped?: (drop: ClientDrop) => void;
}

/** A client dropped because its replies piled up unread. */
interface ClientDrop {
  /** Bytes queued for it when it was dropped. */
  bufferedBytes: number;
  /** Calls it had sent that were still being answered. */
  inFlight: number;
  /** The close reason it was sent. */
  reason: string;
}

/** One open WebSocket, as `connections()` reports it. */
interface WebConnectionStats {
  /** Bytes queued to it and not yet taken by the operating system. */
  bufferedBytes: number;
  /** Its calls not yet answered. */
  inFlight: number;
  /** Dropped and waiting for its socket to go. */
  closing: boolean;
}

export interface WebHost {
  /** The page to open, with the token: `http://127.0.0.1:<port>/?token=…` (the page hands it to its WebSocket as a subprotocol). */
  url: string;
  port: number;
  token: string;
  /** The open WebSockets, for tests and diagnostics. */
  connections(): WebConnectionStats[];
  close(): Promise<void>;
}

/** Room for the largest `importTraceContent` call, JSON-escaped (quotes and backslashes double). */
export const MAX_FRAME_BYTES = 2 * MAX_TRACE_CONTENT_BYTES + (1 << 20);

/**
 * Bytes the host queues for one client before it drops it: a client that stops reading its
 * replies (or a flood of pipelined calls it never collects) cannot grow the host's memory beyond this.
 */
export const MAX_BUFFERED_BYTES = 16 * 2 ** 20;
/** Calls one client may have waiting for an answer; more are refused with `unavailable` until some are answered. */
export const MAX_IN_FLIGHT_CALLS = 256;
/** Time a dropped client gets to read up to its close frame before its socket is destroyed. */
const CLOSE_GRACE_MS = 5_000;
/** WebSocket close code "try again later" (RFC 6455 registry), sent to a client that stopped reading. */
const CLOSE_SLOW_CLIENT = 1013;
const SLOW_CLIENT_REASON = 'Closed: the client is not reading its replies';

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The headless web host: serves the built renderer and the contract over a WebSocket, on
 * 127.0.0.1 only. A WebSocket must present the per-launch token (as the subprotocol
 * `strata.token.<token>` beside `strata.v1`, never in its URL) and come from this host's own
 * origin, and every request must name 127.0.0.1/localhost as its Host (no DNS rebinding), so
 * another local page cannot drive the host. Calls go through the host's dispatcher (validated,
 * enveloped); one host connection per socket carries its subscription.
 */
export async function startWebHost(o: WebHostOptions): Promise<WebHost> {
  const token = o.token ?? randomBytes(24).toString('hex');
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const server = createServer((req, res) => {
    serveStatic(req, res).catch(() => (res.headersSent ? res.destroy() : refuse(res, 500, 'Internal server error')));
  });
  // Select the wire protocol, never the token's: the upgrade checked both are offered.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: () => WIRE_PROTOCOL });

  async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(res, 421, 'Misdirected request');
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed');
    const url = requestUrl(req);
    if (!url) return refuse(res, 400, 'Bad request');
    const file = await readStatic(o.staticDir, url.pathname);
    if (!file) return refuse(res, 404, 'Not found');
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Security-Policy': rendererCsp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node detaches its own error handler from an upgrading socket: without this one, a client
    // that resets the connection while it is refused would crash the host with an uncaught error.
    const onSocketError = () => socket.destroy();
    socket.on('error', onSocketError);
    const url = requestUrl(req);
    const host = req.headers.host ?? '';
    const origin = req.headers.origin;
    const reject = (status: string) => {
      socket.once('finish', () => socket.destroy());
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!url) return reject('400 Bad Request');
    if (url.pathname !== wirePath) return reject('404 Not Found');
    if (!allowedHosts().has(host)) return reject('421 Misdirected Request');
    if (origin !== undefined && origin !== `http://${host}`) return reject('403 Forbidden');
    const offered = offeredProtocols(req);
    const tokens = offered.filter((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
    if (tokens.length !== 1 || !sameSecret(tokens[0]!.slice(TOKEN_PROTOCOL_PREFIX.length), token)) return reject('401 Unauthorized');
    if (!offered.includes(WIRE_PROTOCOL)) return reject('400 Bad Request');
    socket.off('error', onSocketError); // ws handles the socket's errors from here on
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  const open = new Map<WebSocket, { inFlight: number; closing: boolean }>();

  /**
   * One socket's session: replies and events go out only while what is queued for it stays under
   * {@link MAX_BUFFERED_BYTES}; past it the client is dropped (close 1013, its host connection and
   * subscriptions released at once, its socket destroyed after the grace), and at most
   * {@link MAX_IN_FLIGHT_CALLS} of its calls run at a time.
   */
  function attach(ws: WebSocket): void {
    const state = { inFlight: 0, closing: false };
    open.set(ws, state);
    let connection: HostConnection | undefined;
    const drop = () => {
      if (state.closing) return;
      state.closing = true;
      connection?.close();
      o.onClientDropped?.({ bufferedBytes: ws.bufferedAmount, inFlight: state.inFlight, reason: SLOW_CLIENT_REASON });
      ws.close(CLOSE_SLOW_CLIENT, SLOW_CLIENT_REASON);
      const timer = setTimeout(() => ws.terminate(), o.closeGraceMs ?? CLOSE_GRACE_MS);
      ws.once('close', () => clearTimeout(timer));
    };
    const send = (reply: WireReply) => {
      if (state.closing || ws.readyState !== ws.OPEN) return;
      const frame = JSON.stringify(reply);
      if (ws.bufferedAmount + Buffer.byteLength(frame) > MAX_BUFFERED_BYTES) return drop();
      ws.send(frame);
    };
    const conn = o.host.connect((event) => send({ kind: 'event', event }));
    connection = conn;
    const refuse = (id: number | null, code: 'invalid_args' | 'unavailable', message: string) => send({ kind: 'result', id, envelope: { ok: false, error: { code, message } } });
    ws.on('message', (data, isBinary) => {
      if (state.closing) return;
      const call = parseCall(isBinary ? undefined : data.toString());
      if ('error' in call) return refuse(call.id, 'invalid_args', call.error);
      if (state.inFlight >= MAX_IN_FLIGHT_CALLS) {
        return refuse(call.id, 'unavailable', `Too many calls waiting for an answer on this connection (at most ${MAX_IN_FLIGHT_CALLS} calls at a time); wait for answers before sending more.`);
      }
      state.inFlight++;
      void conn.call(call.command, call.args).then((envelope) => {
        state.inFlight--;
        send({ kind: 'result', id: call.id, envelope });
      });
    });
    ws.on('close', () => {
      open.delete(ws);
      conn.close();
    });
    ws.on('error', () => conn.close());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    connections: () => [...open].map(([ws, st]) => ({ bufferedBytes: ws.bufferedAmount, inFlight: st.inFlight, closing: st.closing })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The subprotocols a WebSocket upgrade offers (`Sec-WebSocket-Protocol`, comma-separated), as written. */
function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  if (header === undefined) return [];
  return header
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** The request's target as a URL, or undefined when it is not one (`//host:99999/`: `new URL` throws). */
function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    return undefined;
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(message);
}

/** A frame as a call, or the reason it is not one. */
export function parseCall(text: string | undefined): WireCall | { id: number | null; error: string } {
  if (text === undefined) return { id: null, error: 'Malformed message: binary frames are not accepted; send JSON text.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, error: 'Malformed message: not valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { id: null, error: 'Malformed message: expected an object {id, command, args}.' };
  }
  const { id, command, args } = value as Record<string, unknown>;
  const validId = typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  if (validId === null) return { id: null, error: 'Malformed message: "id" must be an integer.' };
  if (typeof command !== 'string') return { id: validId, error: 'Malformed message: "command" must be a string.' };
  return { id: validId, command, args };
}
