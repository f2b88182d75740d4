import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { countPrompt, o200kTokens } from './countedPrompt';
import { anthropicPieces, responsesPieces } from './promptPieces';
import { validateAnthropic, validateRequest, type Refusal, type ValidationOptions } from './providerValidation';
import { viewRequest, type ScriptedReply, type ScriptRule, type WireApi } from './replyScript';
import { anthropicReply, responsesReply, type ReplyWire } from './replyWire';
import { AnthropicTokenCache, OpenAITokenCache } from './tokenPromptCache';

/**
 * The real-client harness's provider: one loopback HTTP server speaking the Anthropic Messages API
 * (`POST /v1/messages`, any query such as `?beta=true`, SSE or JSON; `POST /v1/messages/count_tokens`)
 * and the OpenAI Responses API (`POST /v1/responses`, SSE or JSON), answering model calls from a
 * reply script (`replyScript.ts`) with usage that is honest about the request it received: the
 * prompt is counted in o200k tokens over a documented serialization (`promptPieces.ts`) and cache
 * reads and writes come from a prefix-cache simulation over those tokens (`tokenPromptCache.ts`);
 * output tokens are the o200k tokens of the reply's text, tool names and JSON inputs. No two
 * calls get the same usage (a reply that would repeat an earlier call's figures gets one more
 * word of text), so a usage identifies its call.
 *
 * Every request is logged in arrival order (method, path, headers without the key, body), each
 * model call with the rule that answered it, the server's prompt-token count and the usage it
 * returned. Anything else (another path or method) is logged and answered 404.
 *
 * With `validation`, the server refuses what the providers refuse (`providerValidation.ts`), in
 * their status and error shape, before any rule is used; the refusal is logged with the call.
 * Each call also records the SHA-256 and length of its raw body and of the bytes it answered, so
 * a test can compare them with what a client sent to, and got from, a proxy in front.
 */

type CallKind = 'anthropic-messages' | 'anthropic-count-tokens' | 'openai-responses' | 'other';

export interface ServerCall {
  /** 0-based arrival order over every request. */
  index: number;
  at: string;
  method: string;
  /** Path with query. */
  path: string;
  kind: CallKind;
  /** Lower-case header names; `x-api-key` and `authorization` are left out. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** The raw body as received (before any content-encoding is undone): its length and SHA-256 hex. */
  bodyBytes: number;
  bodySha256: string;
  status: number;
  /** The bytes of the response as written (SSE events included), once it ended. */
  responseBytes?: number;
  responseSha256?: string;
  /** Validating mode: why the request was refused, as the provider would say it. */
  refusal?: { type: string; message: string };
  /** Model calls: the rule that answered (`unscripted` when none matched) and whose call it is. */
  rule?: string;
  agent?: string;
  streamed?: boolean;
  /** Model calls and token counts: the prompt's o200k tokens as the server counted them. */
  promptTokens?: number;
  /** Model calls: the final usage object exactly as returned. */
  usage?: Record<string, unknown>;
  reply?: ScriptedReply;
}

export interface ScriptedServerOptions {
  rules: readonly ScriptRule[];
  /** Anthropic's shortest cacheable prefix (default 1024 tokens). */
  anthropicMinCacheTokens?: number;
  /** Refuse requests the way the providers do (SPEC `[real-client-validating]`); off when undefined. */
  validation?: ValidationOptions;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request, in arrival order. */
  readonly calls: ServerCall[];
  /** Rules that never answered. */
  unusedRules(): string[];
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization']);

export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || SECRET_HEADERS.has(name.toLowerCase())) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function decodeBody(req: IncomingMessage, raw: Buffer): string {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return raw.toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (encoding === 'deflate') return inflateSync(raw).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  throw new Error(`request body has content-encoding ${encoding}, which the harness server cannot read`);
}

/** Hashes every byte written to `res` into `entry` when the response ends. */
function hashResponse(res: ServerResponse, entry: ServerCall): void {
  const hash = createHash('sha256');
  let bytes = 0;
  const take = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      hash.update(b);
      bytes += b.length;
    }
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    take(args[0]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') take(args[0]);
    entry.responseBytes = bytes;
    entry.responseSha256 = hash.digest('hex');
    return end(...args);
  }) as ServerResponse['end'];
}

const usageKey = (api: WireApi, u: Record<string, unknown>): string =>
  api === 'anthropic'
    ? `${String(u['input_tokens'])}/${String(u['cache_read_input_tokens'])}/${String(u['cache_creation_input_tokens'])}/${String(u['output_tokens'])}`
    : `${String(u['input_tokens'])}/${JSON.stringify(u['input_tokens_details'])}/${String(u['output_tokens'])}`;

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const calls: ServerCall[] = [];
  const used = new Set<string>();
  const handedOut = new Set<string>();
  const anthropicCache = new AnthropicTokenCache(options.anthropicMinCacheTokens ?? 1024);
  const openaiCache = new OpenAITokenCache();
  let responseSeq = 0;

  const pickReply = (api: WireApi, body: Record<string, unknown>): { rule: string; agent: string; reply: ScriptedReply } => {
    const view = viewRequest(api, body);
    const rule = options.rules.find((r) => !used.has(r.id) && r.when(view));
    if (!rule) return { rule: 'unscripted', agent: 'unscripted', reply: { text: 'Unscripted request: nothing to do.' } };
    used.add(rule.id);
    return { rule: rule.id, agent: rule.agent, reply: typeof rule.reply === 'function' ? rule.reply(view) : rule.reply };
  };

  /** Output tokens of a reply; a reply whose usage an earlier call already got grows by one word. */
  const uniqueUsage = (api: WireApi, reply: ScriptedReply, usageFor: (output: number) => Record<string, unknown>): { reply: ScriptedReply; usage: Record<string, unknown> } => {
    let current = reply;
    for (let extra = 0; ; extra++) {
      const output = Math.max(1, o200kTokens(current.text ?? '') + (current.calls ?? []).reduce((n, c) => n + o200kTokens(c.name) + o200kTokens(JSON.stringify(c.input)), 0));
      const usage = usageFor(output);
      const key = usageKey(api, usage);
      if (!handedOut.has(key)) {
        handedOut.add(key);
        return { reply: current, usage };
      }
      current = { ...current, text: `${current.text ?? 'Noted'} ok` };
    }
  };

  /** Validating mode: answers `refusal` and logs it; true when it did. */
  const refused = (refusal: Refusal | undefined, entry: ServerCall, res: ServerResponse): boolean => {
    if (!refusal) return false;
    Object.assign(entry, { status: refusal.status, refusal: { type: refusal.type, message: refusal.message } });
    sendJson(res, refusal.status, refusal.body, { 'request-id': `req_harness_${entry.index}` });
    return true;
  };

  const answerModelCall = (api: WireApi, body: Record<string, unknown>, entry: ServerCall, res: ServerResponse) => {
    const stream = body['stream'] === true;
    const pieces = api === 'anthropic' ? anthropicPieces(body) : responsesPieces(body);
    const prompt = countPrompt(pieces);
    if (options.validation) {
      entry.promptTokens = prompt.total;
      if (refused(validateRequest(api, body, prompt.total, options.validation), entry, res)) return;
    }
    const picked = pickReply(api, body);
    let wire: ReplyWire;
    if (api === 'anthropic') {
      const cache = anthropicCache.measure(prompt, pieces.breakpoints);
      anthropicCache.remember(prompt, pieces.breakpoints);
      const { reply, usage } = uniqueUsage(api, picked.reply, (output) => ({
        input_tokens: cache.input,
        cache_creation_input_tokens: cache.cacheWrite,
        cache_read_input_tokens: cache.cacheRead,
        cache_creation: { ephemeral_5m_input_tokens: cache.write5m, ephemeral_1h_input_tokens: cache.write1h },
        output_tokens: output,
        service_tier: 'standard',
      }));
      Object.assign(entry, { promptTokens: prompt.total, usage, reply });
      wire = anthropicReply({ id: `msg_h${entry.index}`, model: String(body['model'] ?? 'claude'), reply, usage });
    } else {
      const cache = openaiCache.measure(prompt);
      openaiCache.remember(prompt);
      const { reply, usage } = uniqueUsage(api, picked.reply, (output) => ({
        input_tokens: cache.promptTokens,
        input_tokens_details: { cached_tokens: cache.cachedTokens },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: cache.promptTokens + output,
      }));
      Object.assign(entry, { promptTokens: prompt.total, usage, reply });
      wire = responsesReply({ id: `resp_h${entry.index}`, seq: responseSeq++, model: String(body['model'] ?? 'gpt'), reply, usage });
    }
    Object.assign(entry, { rule: picked.rule, agent: picked.agent, streamed: stream, status: 200 });
    return stream ? wire.sse(res) : wire.json(res);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      const method = req.method ?? 'GET';
      const route = path.split('?')[0];
      const entry: ServerCall = { index: calls.length, at: new Date().toISOString(), method, path, kind: 'other', headers: headersOf(req), body: undefined, bodyBytes: 0, bodySha256: '', status: 0 };
      calls.push(entry);
      hashResponse(res, entry);
      const bytes = await readRaw(req);
      Object.assign(entry, { bodyBytes: bytes.length, bodySha256: createHash('sha256').update(bytes).digest('hex') });
      const raw = decodeBody(req, bytes);
      try {
        entry.body = raw.length > 0 ? JSON.parse(raw) : undefined;
      } catch {
        entry.body = raw;
      }
      const body = typeof entry.body === 'object' && entry.body !== null && !Array.isArray(entry.body) ? (entry.body as Record<string, unknown>) : undefined;
      if (method === 'POST' && route === '/v1/messages' && body) {
        entry.kind = 'anthropic-messages';
        await answerModelCall('anthropic', body, entry, res);
      } else if (method === 'POST' && route === '/v1/messages/count_tokens' && body) {
        entry.kind = 'anthropic-count-tokens';
        if (options.validation && refused(validateAnthropic(body, undefined, options.validation), entry, res)) return;
        entry.promptTokens = countPrompt(anthropicPieces(body)).total;
        entry.status = 200;
        sendJson(res, 200, { input_tokens: entry.promptTokens });
      } else if (method === 'POST' && route === '/v1/responses' && body) {
        entry.kind = 'openai-responses';
        await answerModelCall('responses', body, entry, res);
      } else {
        entry.status = 404;
        sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `The harness server does not serve ${method} ${route}` } });
      }
    })().catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      const entry = calls[calls.length - 1];
      if (entry && entry.status === 0) entry.status = 500;
      if (!res.headersSent) sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `harness server failure: ${message}` } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    unusedRules: () => options.rules.filter((r) => !used.has(r.id)).map((r) => r.id),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text).toString() });
  res.end(text);
}
