import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_TRACE_CONTENT_BYTES, type StrataEvent, type WireCall, type WireReply, wirePath } from '../../engine/contract';
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
}

export interface WebHost {
  /** The address to open, with the token: `http://127.0.0.1:<port>/?token=…`. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Room for the largest `importTraceContent` call, JSON-escaped (quotes and backslashes double). */
export const MAX_FRAME_BYTES = 2 * MAX_TRACE_CONTENT_BYTES + (1 << 20);

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The headless web host: serves the built renderer and the contract over a WebSocket, on
 * 127.0.0.1 only. A WebSocket must present the per-launch token and come from this host's own
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
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

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
    if (!sameSecret(url.searchParams.get('token') ?? '', token)) return reject('401 Unauthorized');
    socket.off('error', onSocketError); // ws handles the socket's errors from here on
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const send = (reply: WireReply) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
    };
    const conn = o.host.connect((event) => send({ kind: 'event', event }));
    ws.on('message', (data, isBinary) => {
      const call = parseCall(isBinary ? undefined : data.toString());
      if ('error' in call) {
        send({ kind: 'result', id: call.id, envelope: { ok: false, error: { code: 'invalid_args', message: call.error } } });
        return;
      }
      void conn.call(call.command, call.args).then((envelope) => send({ kind: 'result', id: call.id, envelope }));
    });
    ws.on('close', () => conn.close());
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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
