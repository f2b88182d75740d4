import type { ServerResponse } from 'node:http';
import { approxTokens, OpenAIPromptCache, serializeOpenAIPrompt } from './promptCache';
import {
  argumentsJson,
  type CapturedRequest,
  hang,
  type LoopbackOptions,
  type LoopbackServer,
  pieces,
  sendJson,
  sendRaw,
  startLoopbackServer,
  startSse,
  type WireFormat,
  writeSse,
} from './server';

/**
 * A loopback server speaking the OpenAI chat-completions wire format (`POST /v1/chat/completions`):
 * `chat.completion` bodies, or `chat.completion.chunk` SSE ending in `data: [DONE]` (with the usage
 * chunk when `stream_options.include_usage`), and OpenAI's real error bodies. Usage follows the
 * prefix-cache simulation of `promptCache.ts` (1024-token minimum, 128-token steps).
 */

export interface OpenAILoopbackOptions extends LoopbackOptions {
  /** Minimum cached prefix (default 1024 tokens). */
  cacheMinTokens?: number;
  /** Cached tokens are rounded down to this step (default 128). */
  cacheStepTokens?: number;
  /** Put the caller's FULL key in the 401 message (the real API shows a masked key), to test redaction. */
  echoKeyInAuthError?: boolean;
}

const ERRORS = {
  server: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null },
  rateLimit: {
    message: 'Rate limit reached for gpt-4o in organization org-loopback on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more.',
    type: 'tokens',
    param: null,
    code: 'rate_limit_exceeded',
  },
};

const mask = (key: string): string => (key.length <= 8 ? '***' : `${key.slice(0, 3)}${'*'.repeat(10)}${key.slice(-4)}`);

class OpenAIWire implements WireFormat {
  private readonly cache: OpenAIPromptCache;
  private seq = 0;

  constructor(private readonly options: OpenAILoopbackOptions) {
    this.cache = new OpenAIPromptCache(options.cacheMinTokens ?? 1024, options.cacheStepTokens ?? 128);
  }

  handles(method: string, path: string): boolean {
    const p = path.split('?')[0];
    return method === 'POST' && (p === '/v1/chat/completions' || p === '/chat/completions');
  }

  keyOf(headers: Record<string, string>): string | undefined {
    return /^Bearer (.+)$/i.exec(headers['authorization'] ?? '')?.[1];
  }

  notFound(res: ServerResponse, path: string): void {
    sendJson(res, 404, { error: { message: `Invalid URL (POST ${path})`, type: 'invalid_request_error', param: null, code: null } });
  }

  resetCache(): void {
    this.cache.reset();
  }

  async respond(captured: CapturedRequest, res: ServerResponse): Promise<void> {
    const reply = captured.reply;
    const requestId = `req_loop${captured.index}`;
    const headers = { 'x-request-id': requestId, 'openai-processing-ms': '1' };
    switch (reply.kind) {
      case 'raw':
        sendRaw(res, reply.status, reply.body, reply.headers);
        return;
      case 'auth': {
        const key = this.keyOf(captured.headers) ?? '';
        const shown = this.options.echoKeyInAuthError ? key : mask(key);
        sendJson(
          res,
          401,
          { error: { message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
          headers,
        );
        return;
      }
      case 'rateLimit': {
        const retry = reply.retryAfterSeconds === undefined ? 1 : reply.retryAfterSeconds;
        sendJson(res, 429, { error: ERRORS.rateLimit }, { ...headers, ...(retry !== null ? { 'retry-after': String(retry) } : {}) });
        return;
      }
      case 'serverError':
        sendJson(res, reply.status ?? 500, { error: ERRORS.server }, { ...headers, ...(reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {}) });
        return;
      case 'contextLimit': {
        const limit = reply.limit ?? 128000;
        const prompt = reply.promptTokens ?? limit + 1234;
        sendJson(
          res,
          400,
          {
            error: {
              message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`,
              type: 'invalid_request_error',
              param: 'messages',
              code: 'context_length_exceeded',
            },
          },
          headers,
        );
        return;
      }
      case 'hang':
        if (captured.stream && reply.afterFirstChunk) {
          startSse(res, headers);
          await writeSse(res, JSON.stringify(this.chunkBase(captured, [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }])));
        }
        await hang(res);
        return;
      case 'malformed':
        if (captured.stream) {
          startSse(res, headers);
          if (reply.variant === 'shape') {
            await writeSse(res, JSON.stringify({ id: 'chatcmpl-broken', object: 'chat.completion.chunk' }));
            await writeSse(res, '[DONE]');
          } else {
            await writeSse(res, '{"id":"chatcmpl-broken","object":"chat.completion.chunk","choices":[{"ind');
          }
          res.end();
        } else if (reply.variant === 'shape') {
          sendJson(res, 200, { id: 'chatcmpl-broken', object: 'chat.completion', created: 0, model: captured.body?.model ?? 'unknown' }, headers);
        } else {
          sendRaw(res, 200, '{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi', { ...headers, 'content-type': 'application/json' });
        }
        return;
      case 'streamError':
        if (!captured.stream) {
          sendJson(res, 500, { error: ERRORS.server }, headers);
          return;
        }
        startSse(res, headers);
        await writeSse(res, JSON.stringify(this.chunkBase(captured, [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }])));
        await writeSse(res, JSON.stringify({ error: { ...ERRORS.server, type: reply.errorType ?? 'server_error' } }));
        res.end();
        return;
      case 'text':
      case 'toolCalls':
        await this.success(captured, res, headers);
        return;
    }
  }

  private chunkBase(captured: CapturedRequest, choices: unknown[], usage?: unknown): Record<string, unknown> {
    const base: Record<string, unknown> = {
      id: `chatcmpl-loop${captured.index}`,
      object: 'chat.completion.chunk',
      created: Math.floor(captured.receivedAt / 1000),
      model: this.modelOf(captured),
      service_tier: 'default',
      system_fingerprint: 'fp_loopback',
      choices,
    };
    if (captured.body?.stream_options?.include_usage === true) base['usage'] = usage ?? null;
    return base;
  }

  private modelOf(captured: CapturedRequest): string {
    const reply = captured.reply;
    if ((reply.kind === 'text' || reply.kind === 'toolCalls') && reply.model) return reply.model;
    return typeof captured.body?.model === 'string' ? captured.body.model : 'gpt-loopback';
  }

  private async success(captured: CapturedRequest, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const reply = captured.reply;
    if (reply.kind !== 'text' && reply.kind !== 'toolCalls') return;
    const text = reply.kind === 'text' ? reply.text : (reply.text ?? '');
    const calls = reply.kind === 'toolCalls' ? reply.calls.map((c, i) => ({ id: c.id ?? `call_loop${captured.index}_${i}`, name: c.name, arguments: argumentsJson(c.arguments) })) : [];
    const finish = reply.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');

    const prompt = serializeOpenAIPrompt(captured.body);
    const { promptTokens, cachedTokens } = this.cache.measure(prompt);
    this.cache.remember(prompt);
    const completion = reply.outputTokens ?? Math.max(1, approxTokens(text + calls.map((c) => c.name + c.arguments).join('')));
    const usage: Record<string, unknown> = {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_tokens_details: { cached_tokens: cachedTokens, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      ...reply.usage,
    };
    captured.usage = usage;
    captured.prompt = prompt;

    if (!captured.stream) {
      const message: Record<string, unknown> = { role: 'assistant', content: calls.length > 0 && text.length === 0 ? null : text, refusal: null, annotations: [] };
      if (calls.length > 0) message['tool_calls'] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      sendJson(
        res,
        200,
        {
          id: `chatcmpl-loop${captured.index}`,
          object: 'chat.completion',
          created: Math.floor(captured.receivedAt / 1000),
          model: this.modelOf(captured),
          choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
          usage,
          service_tier: 'default',
          system_fingerprint: 'fp_loopback',
        },
        headers,
      );
      return;
    }

    startSse(res, headers);
    const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => [{ index: 0, delta, logprobs: null, finish_reason: finishReason }];
    await writeSse(res, JSON.stringify(this.chunkBase(captured, choice({ role: 'assistant', content: calls.length > 0 && text.length === 0 ? null : '', refusal: null }))));
    if (text.length > 0) for (const piece of pieces(text)) await writeSse(res, JSON.stringify(this.chunkBase(captured, choice({ content: piece }))));
    for (const [index, call] of calls.entries()) {
      await writeSse(res, JSON.stringify(this.chunkBase(captured, choice({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))));
      for (const piece of pieces(call.arguments, 5)) {
        if (piece.length === 0) continue;
        await writeSse(res, JSON.stringify(this.chunkBase(captured, choice({ tool_calls: [{ index, function: { arguments: piece } }] }))));
      }
    }
    await writeSse(res, JSON.stringify(this.chunkBase(captured, choice({}, finish))));
    if (captured.body?.stream_options?.include_usage === true) await writeSse(res, JSON.stringify(this.chunkBase(captured, [], usage)));
    await writeSse(res, '[DONE]');
    res.end();
  }
}

export type OpenAILoopback = LoopbackServer;

/** Starts an OpenAI chat-completions loopback on 127.0.0.1; `url` ends in `/v1` (the SDK's `baseURL`). */
export function startOpenAILoopback(options: OpenAILoopbackOptions = {}): Promise<OpenAILoopback> {
  return startLoopbackServer(new OpenAIWire(options), '/v1', options);
}
