import Anthropic, { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ContextLimitError } from '../refresh/ContextLimitError';
import { fromAnthropicMessage, toAnthropicParams } from './anthropicMapping';
import {
  type ApiFailure,
  type Classified,
  contextLimitError,
  InvalidRequestError,
  isAnthropicContextLimit,
  MalformedResponseError,
  parseAnthropicContextLimit,
  parseRetryAfter,
  providerError,
  providerErrorFromApi,
} from './errors';
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse } from './Provider';
import { DEFAULT_MAX_BACKOFF_MS, DEFAULT_MAX_RETRY_AFTER_MS, defaultSleep, type AttemptState, type RetryInfo, runWithRetries, type Sleep } from './retry';
import { resolveProvider, type SecretKey } from './settings';

/**
 * The Anthropic adapter of the provider port, over the official `@anthropic-ai/sdk` (messages).
 * Cache breakpoints become `cache_control` (system blocks flagged `cacheBreakpoint`, and the end
 * of the stable history); streaming goes through the SDK's `messages.stream` helper. The SDK's
 * own retries are off; `runWithRetries` does bounded, jittered retries honouring `retry-after`.
 * The key lives only in the SDK client, inside this closure.
 */

export interface AnthropicProviderOptions {
  /** The key; else `ANTHROPIC_API_KEY` from `env`. */
  apiKey?: string | SecretKey | null;
  /** The base URL (without /v1); else `ANTHROPIC_BASE_URL`; else the SDK default. */
  baseURL?: string | null;
  /** Used when a request leaves `model` empty. */
  model?: string | null;
  /** Idle deadline of one attempt (no response, or no stream event, for this long). */
  timeoutMs: number;
  /** Retries after the first call (at most `maxRetries + 1` calls). */
  maxRetries: number;
  /** Backoff ceiling of the first retry; doubles per retry, full jitter. */
  retryBaseMs: number;
  maxBackoffMs?: number;
  maxRetryAfterMs?: number;
  random?: () => number;
  sleep?: Sleep;
  onRetry?: (info: RetryInfo) => void;
  /** Where the fallbacks are read; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** A custom fetch for the SDK (proxies, tests). */
  fetch?: typeof fetch;
}

const PROVIDER = 'anthropic';
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const settings = resolveProvider(PROVIDER, options.env ?? process.env, { apiKey: options.apiKey ?? null, baseUrl: options.baseURL ?? null, model: options.model ?? null });
  const key = settings.key;
  if (key === null) throw new ProviderError('auth', `${PROVIDER}: no API key (set it in settings or ANTHROPIC_API_KEY)`, PROVIDER, undefined, 0);
  const secret = key.reveal();
  const defaultModel = settings.view.model;

  const client = new Anthropic({
    apiKey: secret,
    baseURL: settings.view.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
    maxRetries: 0,
    timeout: options.timeoutMs,
    logLevel: 'off',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  const policy = {
    maxRetries: options.maxRetries,
    retryBaseMs: options.retryBaseMs,
    maxBackoffMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };

  const classify = (err: unknown, state: AttemptState): Classified => classifyAnthropicError(err, state, secret);

  async function complete(request: ProviderRequest): Promise<ProviderResponse> {
    const model = request.model.length > 0 ? request.model : defaultModel;
    if (!model) throw providerError(PROVIDER, 'bad_request', 'no model given (request.model or the model setting)', secret, undefined, 0);
    let params: ReturnType<typeof toAnthropicParams>;
    try {
      params = toAnthropicParams(request, model);
    } catch (err) {
      // A request that cannot be sent (bad tool-call JSON, too many breakpoints) fails before any call.
      if (err instanceof InvalidRequestError) throw providerError(PROVIDER, 'bad_request', err.message.replace(/^anthropic: /, ''), secret, undefined, 0);
      throw err;
    }

    return runWithRetries({
      provider: PROVIDER,
      policy,
      timeoutMs: options.timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      classify,
      attempt: async ({ signal, touch }) => {
        if (!request.stream) {
          const body: unknown = await client.messages.create(params, { signal });
          return fromAnthropicMessage(body);
        }
        const stream = client.messages.stream(params, { signal });
        stream.on('streamEvent', () => touch());
        const message = await stream.finalMessage();
        if (signal.aborted) throw new APIUserAbortError();
        return fromAnthropicMessage(message);
      },
    });
  }

  const provider: Provider = { name: PROVIDER, complete };
  return Object.freeze(provider);
}

/** What an Anthropic SDK error said, as an `ApiFailure`. */
function apiFailureOf(err: APIError): ApiFailure {
  const serverMessage = err.apiMessage ?? err.message;
  const failure: ApiFailure = { serverMessage, type: err.type ?? null, code: err.errorCode ?? null };
  if (err.status !== undefined) failure.status = err.status;
  const retryAfter = parseRetryAfter(err.headers);
  if (retryAfter !== undefined) failure.retryAfterMs = retryAfter;
  return failure;
}

/** Maps anything an attempt threw to a `ProviderError` or `ContextLimitError`, key redacted. */
export function classifyAnthropicError(err: unknown, state: AttemptState, secret?: string): Classified {
  if (err instanceof ProviderError || err instanceof ContextLimitError) return { error: err };
  if (state.cancelled) return { error: providerError(PROVIDER, 'cancelled', '', secret) };
  if (state.timedOut || err instanceof APIConnectionTimeoutError) return { error: providerError(PROVIDER, 'timeout', 'no response within the timeout', secret) };
  if (err instanceof APIUserAbortError) return { error: providerError(PROVIDER, 'cancelled', '', secret) };
  if (err instanceof APIConnectionError) return { error: providerError(PROVIDER, 'connection', err.message, secret) };
  if (err instanceof APIError) {
    const failure = apiFailureOf(err);
    if (isAnthropicContextLimit(failure)) return { error: contextLimitError(PROVIDER, failure.serverMessage, parseAnthropicContextLimit(failure.serverMessage), secret) };
    return providerErrorFromApi(PROVIDER, failure, secret);
  }
  if (err instanceof MalformedResponseError || err instanceof SyntaxError) return { error: providerError(PROVIDER, 'malformed', err.message, secret) };
  if (err instanceof AnthropicError) {
    // The stream helper wraps what broke inside it: a JSON error is a malformed stream, a
    // socket error a connection failure; without a cause the stream itself was incomplete.
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error && !(cause instanceof SyntaxError) && !(cause instanceof MalformedResponseError)) {
      return { error: providerError(PROVIDER, 'connection', cause.message, secret) };
    }
    return { error: providerError(PROVIDER, 'malformed', err.message, secret) };
  }
  // A body that broke off mid-read (socket reset, `terminated`): a connection failure.
  const message = err instanceof Error ? err.message : String(err);
  return { error: providerError(PROVIDER, 'connection', message, secret) };
}
