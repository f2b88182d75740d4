import { ContextLimitError } from '../refresh/ContextLimitError';
import { ProviderError, type ProviderErrorKind } from './Provider';

/**
 * Provider-neutral pieces of error mapping shared by the adapters: what an SDK error said (as an
 * `ApiFailure`), which `ProviderErrorKind` a status or an error type means, the context-limit
 * messages of both providers, and redaction so a key never reaches a message.
 */

/** A failed call as the SDK reported it, stripped of the SDK's classes. */
export interface ApiFailure {
  /** HTTP status; undefined for an error event inside a stream. */
  status?: number;
  /** Provider error type (`invalid_request_error`, `rate_limit_error`, `server_error`…). */
  type?: string | null;
  /** Provider error code (OpenAI `context_length_exceeded`, `invalid_api_key`…). */
  code?: string | null;
  /** The server's human message (already unwrapped from the body). */
  serverMessage: string;
  /** From `retry-after-ms` / `retry-after`, when the server sent one. */
  retryAfterMs?: number;
}

/** A mapped failure and, for retryable ones, how long the server asked us to wait. */
export interface Classified {
  error: ProviderError | ContextLimitError;
  retryAfterMs?: number;
}

const MAX_SERVER_MESSAGE = 400;

/** Replaces every occurrence of `secret` in `text` (and clips very long server messages). */
export function redact(text: string, secret: string | undefined): string {
  let out = secret && secret.length > 0 ? text.split(secret).join('[redacted]') : text;
  if (out.length > MAX_SERVER_MESSAGE) out = `${out.slice(0, MAX_SERVER_MESSAGE)}…`;
  return out;
}

/** The kind an HTTP error status means. */
export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status === 409 || status >= 500) return 'server';
  return 'bad_request';
}

/** The kind an error type means when no status came with it (an `error` event inside a stream). */
export function kindForType(type: string | null | undefined): ProviderErrorKind {
  switch (type) {
    case 'rate_limit_error':
    case 'rate_limit_exceeded':
    case 'tokens':
    case 'requests':
      return 'rate_limited';
    case 'authentication_error':
    case 'permission_error':
    case 'invalid_api_key':
      return 'auth';
    case 'timeout_error':
      return 'timeout';
    case 'invalid_request_error':
    case 'not_found_error':
    case 'billing_error':
      return 'bad_request';
    default:
      // api_error, overloaded_error, server_error and anything unknown mid-stream: a server fault.
      return 'server';
  }
}

const DESCRIBE: Record<ProviderErrorKind, string> = {
  rate_limited: 'rate limited',
  server: 'server error',
  timeout: 'timed out',
  connection: 'connection failed',
  malformed: 'malformed response',
  auth: 'authentication failed',
  bad_request: 'request refused',
  cancelled: 'cancelled',
};

/** `openai: server error (HTTP 500): <server message>`; auth failures never repeat the server's text. */
export function describeFailure(provider: string, kind: ProviderErrorKind, detail: string, status?: number): string {
  const head = `${provider}: ${DESCRIBE[kind]}${status !== undefined ? ` (HTTP ${status})` : ''}`;
  if (kind === 'auth') return `${head}: check the ${provider} API key setting`;
  return detail.length > 0 ? `${head}: ${detail}` : head;
}

/** Maps an API failure (status or stream error type) to a `ProviderError`, key redacted. */
export function providerErrorFromApi(provider: string, failure: ApiFailure, secret: string | undefined): Classified {
  const kind = failure.status !== undefined ? kindForStatus(failure.status) : kindForType(failure.type ?? failure.code);
  const message = describeFailure(provider, kind, redact(failure.serverMessage, secret), failure.status);
  const out: Classified = { error: new ProviderError(kind, message, provider, failure.status) };
  if (failure.retryAfterMs !== undefined) out.retryAfterMs = failure.retryAfterMs;
  return out;
}

/** A failure the adapter detected itself (bad response shape, bad request, timeout…), key redacted. */
export function providerError(provider: string, kind: ProviderErrorKind, detail: string, secret: string | undefined, status?: number, attempts = 1): ProviderError {
  return new ProviderError(kind, describeFailure(provider, kind, redact(detail, secret), status), provider, status, attempts);
}

/** A response body that is not what the wire format promises. */
export class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResponseError';
  }
}

/** Thrown before any network call when a request cannot be sent as it is. */
export class InvalidRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

const toInt = (s: string | undefined): number | undefined => {
  if (s === undefined) return undefined;
  const n = Number.parseInt(s, 10);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Token numbers from an OpenAI context-length message, e.g. "This model's maximum context length
 * is 128000 tokens. However, your messages resulted in 130000 tokens…" or "…you requested 131000
 * tokens (129000 in the messages, 2000 in the completion)…". Either may be missing.
 */
export function parseOpenAIContextLimit(message: string): { promptTokens?: number; limit?: number } {
  const limit = toInt(/maximum context length is (\d+)/i.exec(message)?.[1]);
  const prompt =
    toInt(/\((\d+) in the messages/i.exec(message)?.[1]) ??
    toInt(/resulted in (\d+) tokens/i.exec(message)?.[1]) ??
    toInt(/requested (\d+) tokens/i.exec(message)?.[1]);
  return { ...(prompt !== undefined ? { promptTokens: prompt } : {}), ...(limit !== undefined ? { limit } : {}) };
}

/**
 * Token numbers from an Anthropic context message: "prompt is too long: 208310 tokens > 200000
 * maximum", or "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000…".
 */
export function parseAnthropicContextLimit(message: string): { promptTokens?: number; limit?: number } {
  const tooLong = /prompt is too long:\s*(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(message);
  if (tooLong) return { promptTokens: Number(tooLong[1]), limit: Number(tooLong[2]) };
  const withOutput = /exceed context limit:\s*(\d+)\s*\+\s*\d+\s*>\s*(\d+)/i.exec(message);
  if (withOutput) return { promptTokens: Number(withOutput[1]), limit: Number(withOutput[2]) };
  return {};
}

/** OpenAI: code `context_length_exceeded` (or, from compatible servers, the same message without the code). */
export function isOpenAIContextLimit(failure: ApiFailure): boolean {
  if (failure.code === 'context_length_exceeded') return true;
  return (failure.status === 400 || failure.status === undefined) && /maximum context length is \d+/i.test(failure.serverMessage);
}

/** Anthropic: `invalid_request_error` saying the prompt is too long (or input + max_tokens exceed the window). */
export function isAnthropicContextLimit(failure: ApiFailure): boolean {
  if (failure.status !== undefined && failure.status !== 400 && failure.status !== 413) return false;
  return /prompt is too long/i.test(failure.serverMessage) || /exceed context limit/i.test(failure.serverMessage);
}

export function contextLimitError(provider: string, serverMessage: string, parsed: { promptTokens?: number; limit?: number }, secret: string | undefined): ContextLimitError {
  return new ContextLimitError(`${provider}: context limit exceeded: ${redact(serverMessage, secret)}`, provider, parsed.promptTokens, parsed.limit);
}

/** Milliseconds from `retry-after-ms`, or `retry-after` as seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(headers: { get(name: string): string | null } | null | undefined, nowMs = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - nowMs) : undefined;
}
