import type { ServerResponse } from 'node:http';
import { AnthropicPromptCache, approxTokens, serializeAnthropicPrompt } from './promptCache';
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
 * A loopback server speaking the Anthropic messages wire format (`POST /v1/messages`; the key from `x-api-key` or `Authorization: Bearer`): `message`
 * bodies, or the named SSE events (`message_start`, `content_block_start`, `ping`,
 * `content_block_delta` with `text_delta` / `input_json_delta`, `content_block_stop`,
 * `message_delta`, `message_stop`, `error`), and Anthropic's real error bodies. Usage follows the
 * breakpoint cache simulation of `promptCache.ts`.
 */

export interface AnthropicLoopbackOptions extends LoopbackOptions {
  /** Shortest cacheable prefix (default 1024 tokens, as for Sonnet). */
  cacheMinTokens?: number;
  /** Put the caller's FULL key in the 401 message, to test redaction. */
  echoKeyInAuthError?: boolean;
}

const errorBody = (type: string, message: string, requestId: string) => ({ type: 'error', error: { type, message }, request_id: requestId });

class AnthropicWire implements WireFormat {
  private readonly cache: AnthropicPromptCache;

  constructor(private readonly options: AnthropicLoopbackOptions) {
    this.cache = new AnthropicPromptCache(options.cacheMinTokens ?? 1024);
  }

  handles(method: string, path: string): boolean {
    const p = path.split('?')[0];
    return method === 'POST' && p === '/v1/messages';
  }

  /** `x-api-key`, or `Authorization: Bearer` (how SDK 1.x sends an API key). */
  keyOf(headers: Record<string, string>): string | undefined {
    return headers['x-api-key'] ?? /^Bearer (.+)$/i.exec(headers['authorization'] ?? '')?.[1];
  }

  notFound(res: ServerResponse, path: string): void {
    sendJson(res, 404, errorBody('not_found_error', `Not found: ${path}`, 'req_loop_404'));
  }

  resetCache(): void {
    this.cache.reset();
  }

  async respond(captured: CapturedRequest, res: ServerResponse): Promise<void> {
    const reply = captured.reply;
    const requestId = `req_loop${captured.index}`;
    const headers = { 'request-id': requestId, 'anthropic-organization-id': 'org-loopback' };
    switch (reply.kind) {
      case 'raw':
        sendRaw(res, reply.status, reply.body, reply.headers);
        return;
      case 'auth': {
        const message = this.options.echoKeyInAuthError ? `invalid x-api-key: ${this.keyOf(captured.headers) ?? ''}` : 'invalid x-api-key';
        sendJson(res, 401, errorBody('authentication_error', message, requestId), headers);
        return;
      }
      case 'rateLimit': {
        const retry = reply.retryAfterSeconds === undefined ? 1 : reply.retryAfterSeconds;
        sendJson(
          res,
          429,
          errorBody('rate_limit_error', 'This request would exceed the rate limit for your organization (org-loopback) of 50,000 input tokens per minute. Please try again later.', requestId),
          { ...headers, ...(retry !== null ? { 'retry-after': String(retry) } : {}) },
        );
        return;
      }
      case 'serverError': {
        const status = reply.status ?? 500;
        const body = status === 529 ? errorBody('overloaded_error', 'Overloaded', requestId) : errorBody('api_error', 'Internal server error', requestId);
        sendJson(res, status, body, { ...headers, ...(reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {}) });
        return;
      }
      case 'contextLimit': {
        const limit = reply.limit ?? 200000;
        const prompt = reply.promptTokens ?? limit + 1234;
        sendJson(res, 400, errorBody('invalid_request_error', `prompt is too long: ${prompt} tokens > ${limit} maximum`, requestId), headers);
        return;
      }
      case 'hang':
        if (captured.stream && reply.afterFirstChunk) {
          startSse(res, headers);
          await this.event(res, 'message_start', { type: 'message_start', message: this.messageShell(captured, { input_tokens: 1, output_tokens: 1 }) });
        }
        await hang(res);
        return;
      case 'malformed':
        if (captured.stream) {
          startSse(res, headers);
          if (reply.variant === 'shape') {
            await this.event(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'orphan' } });
            await this.event(res, 'message_stop', { type: 'message_stop' });
          } else {
            await writeSse(res, '{"type":"message_start","message":{"id":"msg_broken","type":"mess', 'message_start');
          }
          res.end();
        } else if (reply.variant === 'shape') {
          sendJson(res, 200, { id: 'msg_broken', type: 'message', role: 'assistant' }, headers);
        } else {
          sendRaw(res, 200, '{"id":"msg_broken","type":"message","role":"assistant","content":[{"type":"te', { ...headers, 'content-type': 'application/json' });
        }
        return;
      case 'streamError': {
        const type = reply.errorType ?? 'overloaded_error';
        if (!captured.stream) {
          sendJson(res, 529, errorBody(type, 'Overloaded', requestId), headers);
          return;
        }
        startSse(res, headers);
        await this.event(res, 'message_start', { type: 'message_start', message: this.messageShell(captured, { input_tokens: 1, output_tokens: 1 }) });
        await this.event(res, 'error', { type: 'error', error: { type, message: type === 'overloaded_error' ? 'Overloaded' : 'Internal server error' } });
        res.end();
        return;
      }
      case 'text':
      case 'toolCalls':
        await this.success(captured, res, headers);
        return;
    }
  }

  private event(res: ServerResponse, name: string, data: unknown): Promise<void> {
    return writeSse(res, JSON.stringify(data), name);
  }

  private modelOf(captured: CapturedRequest): string {
    const reply = captured.reply;
    if ((reply.kind === 'text' || reply.kind === 'toolCalls') && reply.model) return reply.model;
    return typeof captured.body?.model === 'string' ? captured.body.model : 'claude-loopback';
  }

  private messageShell(captured: CapturedRequest, usage: Record<string, unknown>): Record<string, unknown> {
    return {
      id: `msg_loop${captured.index}`,
      type: 'message',
      role: 'assistant',
      model: this.modelOf(captured),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    };
  }

  private async success(captured: CapturedRequest, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const reply = captured.reply;
    if (reply.kind !== 'text' && reply.kind !== 'toolCalls') return;
    const text = reply.kind === 'text' ? reply.text : (reply.text ?? '');
    const calls = reply.kind === 'toolCalls' ? reply.calls.map((c, i) => ({ id: c.id ?? `toolu_loop${captured.index}_${i}`, name: c.name, json: argumentsJson(c.arguments) })) : [];
    const stopReason = reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn');

    const prompt = serializeAnthropicPrompt(captured.body);
    const measured = this.cache.measure(prompt);
    this.cache.remember(prompt);
    const output = reply.outputTokens ?? Math.max(1, approxTokens(text + calls.map((c) => c.name + c.json).join('')));
    const usage: Record<string, unknown> = {
      input_tokens: measured.input,
      cache_creation_input_tokens: measured.cacheWrite,
      cache_read_input_tokens: measured.cacheRead,
      cache_creation: { ephemeral_5m_input_tokens: measured.cacheWrite, ephemeral_1h_input_tokens: 0 },
      output_tokens: output,
      service_tier: 'standard',
      ...reply.usage,
    };
    captured.usage = usage;
    captured.prompt = prompt.text;

    const content: Record<string, unknown>[] = [];
    if (text.length > 0) content.push({ type: 'text', text });
    for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.json) as unknown });

    if (!captured.stream) {
      sendJson(res, 200, { ...this.messageShell(captured, usage), content, stop_reason: stopReason }, headers);
      return;
    }

    startSse(res, headers);
    // message_start carries the input side of usage and output_tokens 1; message_delta the final output count.
    await this.event(res, 'message_start', { type: 'message_start', message: this.messageShell(captured, { ...usage, output_tokens: 1 }) });
    await this.event(res, 'ping', { type: 'ping' });
    let index = 0;
    if (text.length > 0) {
      await this.event(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(text)) await this.event(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      await this.event(res, 'content_block_stop', { type: 'content_block_stop', index });
      index += 1;
    }
    for (const c of calls) {
      await this.event(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
      for (const piece of pieces(c.json, 5)) await this.event(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      await this.event(res, 'content_block_stop', { type: 'content_block_stop', index });
      index += 1;
    }
    await this.event(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } });
    await this.event(res, 'message_stop', { type: 'message_stop' });
    res.end();
  }
}

export type AnthropicLoopback = LoopbackServer;

/** Starts an Anthropic messages loopback on 127.0.0.1; `url` is the origin (the SDK's `baseURL`). */
export function startAnthropicLoopback(options: AnthropicLoopbackOptions = {}): Promise<AnthropicLoopback> {
  return startLoopbackServer(new AnthropicWire(options), '', options);
}
