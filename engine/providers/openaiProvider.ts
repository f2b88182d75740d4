import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { ContextLimitError } from '../refresh/ContextLimitError';
import {
  type ApiFailure,
  type Classified,
  contextLimitError,
  InvalidRequestError,
  isOpenAIContextLimit,
  MalformedResponseError,
  parseOpenAIContextLimit,
  parseRetryAfter,
  providerError,
  providerErrorFromApi,
} from './errors';
import { fromOpenAICompletion, OpenAIStreamAssembler, toOpenAIParams } from './openaiMapping';
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse } from './Provider';
import { DEFAULT_MAX_BACKOFF_MS, DEFAULT_MAX_RETRY_AFTER_MS, defaultSleep, type AttemptState, type RetryInfo, runWithRetries, type Sleep } from './retry';
import { resolveProvider, type SecretKey } from './settings';

/**
 * The OpenAI adapter of the provider port, over the official `openai` SDK (chat completions).
 * The SDK's own retries are off; `runWithRetries` retries 429, 5xx, timeouts and connection
 * failures with full-jitter backoff and `retry-after`. The key lives only in the SDK client,
 * inside this closure: the returned object serialises to `{"name":"openai"}`.
 */

export interface OpenAIProviderOptions {
  /** The key; else `OPENAI_API_KEY` from `env`. */
  apiKey?: string | SecretKey | null;
  /** The base URL (…/v1); else `OPENAI_BASE_URL`; else the SDK default. */
  baseURL?: string | null;
  /** Used when a request leaves `model` empty. */
  model?: string | null;
  /** Idle deadline of one attempt (no response, or no stream chunk, for this long). */
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

const PROVIDER = 'openai';
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const settings = resolveProvider(PROVIDER, options.env ?? process.env, { apiKey: options.apiKey ?? null, baseUrl: options.baseURL ?? null, model: options.model ?? null });
  const key = settings.key;
  if (key === null) throw new ProviderError('auth', `${PROVIDER}: no API key (set it in settings or OPENAI_API_KEY)`, PROVIDER, undefined, 0);
  const secret = key.reveal();
  const defaultModel = settings.view.model;

  const client = new OpenAI({
    apiKey: secret,
    baseURL: settings.view.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
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

  const classify = (err: unknown, state: AttemptState): Classified => classifyOpenAIError(err, state, secret);

  async function complete(request: ProviderRequest): Promise<ProviderResponse> {
    const model = request.model.length > 0 ? request.model : defaultModel;
    if (!model) throw providerError(PROVIDER, 'bad_request', 'no model given (request.model or the model setting)', secret, undefined, 0);
    let params: ReturnType<typeof toOpenAIParams>;
    try {
      params = toOpenAIParams(request, model);
    } catch (err) {
      if (err instanceof InvalidRequestError) throw providerError(PROVIDER, 'bad_request', err.message, secret, undefined, 0);
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
          const body: unknown = await client.chat.completions.create(params, { signal });
          return fromOpenAICompletion(body);
        }
        const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal });
        const assembler = new OpenAIStreamAssembler();
        for await (const chunk of stream) {
          touch();
          assembler.push(chunk);
        }
        // The SDK ends an aborted stream quietly: an abort here is a timeout or a cancel, not an end.
        if (signal.aborted) throw new APIUserAbortError();
        return assembler.result();
      },
    });
  }

  const provider: Provider = { name: PROVIDER, complete };
  return Object.freeze(provider);
}

/** What an OpenAI SDK error said, as an `ApiFailure`. */
function apiFailureOf(err: APIError): ApiFailure {
  const body = err.error as { message?: unknown } | undefined;
  const serverMessage = typeof body?.message === 'string' ? body.message : err.message;
  const failure: ApiFailure = { serverMessage, type: err.type ?? null, code: err.code ?? null };
  if (err.status !== undefined) failure.status = err.status;
  const retryAfter = parseRetryAfter(err.headers);
  if (retryAfter !== undefined) failure.retryAfterMs = retryAfter;
  return failure;
}

/** Maps anything an attempt threw to a `ProviderError` or `ContextLimitError`, key redacted. */
export function classifyOpenAIError(err: unknown, state: AttemptState, secret?: string): Classified {
  if (err instanceof ProviderError || err instanceof ContextLimitError) return { error: err };
  if (state.cancelled) return { error: providerError(PROVIDER, 'cancelled', '', secret) };
  if (state.timedOut || err instanceof APIConnectionTimeoutError) return { error: providerError(PROVIDER, 'timeout', 'no response within the timeout', secret) };
  if (err instanceof APIUserAbortError) return { error: providerError(PROVIDER, 'cancelled', '', secret) };
  if (err instanceof APIConnectionError) return { error: providerError(PROVIDER, 'connection', err.message, secret) };
  if (err instanceof APIError) {
    const failure = apiFailureOf(err);
    if (isOpenAIContextLimit(failure)) return { error: contextLimitError(PROVIDER, failure.serverMessage, parseOpenAIContextLimit(failure.serverMessage), secret) };
    return providerErrorFromApi(PROVIDER, failure, secret);
  }
  if (err instanceof MalformedResponseError || err instanceof SyntaxError) return { error: providerError(PROVIDER, 'malformed', err.message, secret) };
  if (err instanceof OpenAIError) return { error: providerError(PROVIDER, 'malformed', err.message, secret) };
  // A body that broke off mid-read (socket reset, `terminated`): a connection failure.
  const message = err instanceof Error ? err.message : String(err);
  return { error: providerError(PROVIDER, 'connection', message, secret) };
}
