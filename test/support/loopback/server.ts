import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASYNC_WAIT_MS } from '../testTimeouts.mjs';

/**
 * The shared core of the loopback provider servers: a real `node:http` server on 127.0.0.1 (port
 * 0), every request captured (method, path, headers, raw and parsed body), and replies scripted
 * per test (a queue, then a default). The wire formats live in `openaiLoopback.ts` and
 * `anthropicLoopback.ts`.
 */

/** A tool call a scripted reply makes. `arguments` as JSON text or an object (serialised for you). */
interface ScriptedToolCall {
  /** Defaults to `call_<n>` (OpenAI) / `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** Extra knobs of a successful reply. */
interface SuccessExtras {
  /** The finish / stop reason on the wire; defaults to the provider's natural one. */
  stopReason?: string;
  /** Output tokens reported; default: the tokens of the generated text and tool calls (min 1). */
  outputTokens?: number;
  /** Fields merged over the computed wire `usage` object (e.g. to report odd numbers). */
  usage?: Record<string, unknown>;
  /** The model named in the answer; defaults to the request's model. */
  model?: string;
}

/**
 * What the server answers to one request. Success replies are streamed (SSE) when the request
 * body says `stream: true`, and sent as one JSON body otherwise.
 */
export type LoopbackReply =
  | ({ kind: 'text'; text: string } & SuccessExtras)
  | ({ kind: 'toolCalls'; calls: ScriptedToolCall[]; text?: string } & SuccessExtras)
  /** The provider's real context-limit error (OpenAI 400 context_length_exceeded; Anthropic 400 "prompt is too long"). */
  | { kind: 'contextLimit'; promptTokens?: number; limit?: number }
  /** 429 with the provider's rate-limit body and `retry-after` (seconds; default 1; `null` for none). */
  | { kind: 'rateLimit'; retryAfterSeconds?: number | null }
  /** 5xx with the provider's server-error body (default 500; Anthropic 529 = overloaded). */
  | { kind: 'serverError'; status?: number; retryAfterSeconds?: number }
  /** 401 with the provider's auth body. */
  | { kind: 'auth' }
  /** Never answers (or, streaming, stalls after the first event), for timeouts. */
  | { kind: 'hang'; afterFirstChunk?: boolean }
  /** 200 with a broken body: `truncated` JSON (default) or valid JSON of the wrong `shape`. */
  | { kind: 'malformed'; variant?: 'truncated' | 'shape' }
  /** A stream that starts fine and then carries the provider's error event (streaming requests only). */
  | { kind: 'streamError'; errorType?: string }
  /** Anything else, verbatim. */
  | { kind: 'raw'; status: number; headers?: Record<string, string>; body: string };

export interface CapturedRequest {
  /** 0-based order of arrival. */
  index: number;
  method: string;
  /** Path with query. */
  path: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed JSON body (`undefined` when it was not JSON). */
  body: any;
  /** The body asked for SSE (`stream: true`). */
  stream: boolean;
  /** What the server answered. */
  reply: LoopbackReply;
  /** The usage object reported on the wire (success replies only), exactly as sent. */
  usage?: Record<string, unknown>;
  /** The serialised prompt the cache simulation saw. */
  prompt?: string;
  receivedAt: number;
}

type ReplyScript = LoopbackReply | ((request: CapturedRequest) => LoopbackReply);

/** What a wire format implements for the core. */
export interface WireFormat {
  /** Does this path belong to the endpoint (e.g. `/v1/chat/completions`)? */
  handles(method: string, path: string): boolean;
  /** The API key a request carries (Authorization bearer / x-api-key). */
  keyOf(headers: Record<string, string>): string | undefined;
  /** Answers one captured request with `reply` (fills `captured.usage` / `captured.prompt` on success). */
  respond(captured: CapturedRequest, res: ServerResponse): Promise<void>;
  /** The 404 body of an unknown path. */
  notFound(res: ServerResponse, path: string): void;
  resetCache(): void;
}

export interface LoopbackOptions {
  /** Answer when the queue is empty; default `{ kind: 'text', text: 'ok' }`. */
  defaultReply?: ReplyScript;
  /** When set, a request with another key gets the provider's 401 (without consuming the queue). */
  expectedKey?: string;
}

export interface LoopbackServer {
  /** The base URL to give the SDK (`…/v1` for OpenAI, the origin for Anthropic). */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: CapturedRequest[];
  /** Queue replies; each request takes the next one, then the default. */
  enqueue(...replies: ReplyScript[]): this;
  /** Replace the default reply. */
  setDefault(reply: ReplyScript): this;
  /** Queued replies not yet used. */
  pending(): number;
  /** Forget the prompt cache (the next request reads nothing). */
  resetCache(): void;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Closes the server and every open (e.g. hung) connection. */
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a loopback server speaking `wire`. `basePath` is appended to the origin in `url`. */
export async function startLoopbackServer(wire: WireFormat, basePath: string, options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const requests: CapturedRequest[] = [];
  const queue: ReplyScript[] = [];
  let fallback: ReplyScript = options.defaultReply ?? { kind: 'text', text: 'ok' };
  const waiters: { count: number; resolve: () => void }[] = [];

  const notify = () => {
    for (const w of [...waiters]) {
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req);
      const path = req.url ?? '/';
      const method = req.method ?? 'GET';
      if (!wire.handles(method, path)) {
        wire.notFound(res, path);
        return;
      }
      let body: any;
      try {
        body = rawBody.length > 0 ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const headers = headersOf(req);
      const captured: CapturedRequest = {
        index: requests.length,
        method,
        path,
        headers,
        rawBody,
        body,
        stream: typeof body === 'object' && body !== null && body.stream === true,
        reply: { kind: 'text', text: '' },
        receivedAt: Date.now(),
      };
      const wrongKey = options.expectedKey !== undefined && wire.keyOf(headers) !== options.expectedKey;
      const script = wrongKey ? ({ kind: 'auth' } as const) : (queue.shift() ?? fallback);
      captured.reply = typeof script === 'function' ? script(captured) : script;
      requests.push(captured);
      notify();
      await wire.respond(captured, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`loopback failure: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const api: LoopbackServer = {
    url: `${origin}${basePath}`,
    origin,
    requests,
    enqueue(...replies) {
      queue.push(...replies);
      return api;
    },
    setDefault(reply) {
      fallback = reply;
      return api;
    },
    pending: () => queue.length,
    resetCache: () => wire.resetCache(),
    waitForRequests(count, timeoutMs = ASYNC_WAIT_MS) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`loopback: ${requests.length} of ${count} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return api;
}

/** Writes one JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text).toString(), ...headers });
  res.end(text);
}

/** Writes a raw response. */
export function sendRaw(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': Buffer.byteLength(body).toString(), ...headers });
  res.end(body);
}

/** Starts an SSE response. */
export function startSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
}

/** Writes one SSE event (`event:` line only when named) and yields to the event loop, so chunks arrive apart. */
export async function writeSse(res: ServerResponse, data: string, event?: string): Promise<void> {
  if (res.destroyed) return;
  res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${data}\n\n`);
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Keeps a request open without answering until the client gives up or the server closes. */
export function hang(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => res.once('close', () => resolve()));
}

/** Splits text into pieces of `size` characters (at least one piece, possibly empty). */
export function pieces(text: string, size = 7): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export const argumentsJson = (args: string | Record<string, unknown>): string => (typeof args === 'string' ? args : JSON.stringify(args));
