import { type Classified, InvalidRequestError, providerError } from '../../providers/errors';
import { ProviderError, type ProviderRequest, type ProviderResponse } from '../../providers/Provider';
import { type AttemptContext, type AttemptState, DEFAULT_MAX_BACKOFF_MS, DEFAULT_MAX_RETRY_AFTER_MS, defaultSleep, type RetryInfo, runWithRetries, type Sleep } from './retry';
import { type ProviderName, resolveProvider, type SecretKey } from '../../providers/settings';

/**
 * The frame every SDK adapter of the provider port shares: settings and key resolution, the retry
 * policy, the SDK client options (its own retries off, logging off), the model choice, request
 * mapping failures as `bad_request` before any call, and the bounded retry loop. An adapter adds
 * only what differs: its SDK client, its request mapping, one attempt, and its error classifier.
 */
export interface SdkAdapterOptions {
  /** The key; else the provider's key variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) from `env`. */
  apiKey?: string | SecretKey | null;
  /** The base URL; else the provider's base-URL variable; else the SDK default. */
  baseURL?: string | null;
  /** Used when a request leaves `model` empty. */
  model?: string | null;
  /** Idle deadline of one attempt (no response, or no stream chunk, for this long). */
  timeoutMs: number;
  /**
   * The most time one call may take with its retries and their waits (`[provider-time-limit]`);
   * a request's `timeBudgetMs` may shorten it. Absent: only `maxRetries` bounds a call.
   */
  turnTimeoutMs?: number;
  /** How errors name that limit (`[providers] turn_timeout_ms in strata.toml`). */
  timeLimitName?: string;
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

export interface SdkAdapterFrame {
  /** The options' `turnTimeoutMs`, for the provider to state. */
  turnTimeoutMs?: number;
  /** Options for the SDK client's constructor: the key lives only there and in this closure. */
  client: { apiKey: string; baseURL: string; maxRetries: 0; timeout: number; logLevel: 'off'; fetch?: typeof fetch };
  /** Map `request` for `model`, then run `attempt` under the retry policy. */
  call<P>(
    request: ProviderRequest,
    toParams: (request: ProviderRequest, model: string) => P,
    attempt: (params: P, ctx: AttemptContext) => Promise<ProviderResponse>,
    classify: (err: unknown, state: AttemptState, secret: string) => Classified,
  ): Promise<ProviderResponse>;
}

export function sdkAdapterFrame(provider: ProviderName, keyVariable: string, defaultBaseUrl: string, options: SdkAdapterOptions): SdkAdapterFrame {
  const settings = resolveProvider(provider, options.env ?? process.env, { apiKey: options.apiKey ?? null, baseUrl: options.baseURL ?? null, model: options.model ?? null });
  if (settings.key === null) throw new ProviderError('auth', `${provider}: no API key (set it in settings or ${keyVariable})`, provider, undefined, 0);
  const secret = settings.key.reveal();
  const defaultModel = settings.view.model;
  const policy = {
    maxRetries: options.maxRetries,
    retryBaseMs: options.retryBaseMs,
    maxBackoffMs: options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
    now: () => Date.now(),
  };
  return {
    ...(options.turnTimeoutMs !== undefined ? { turnTimeoutMs: options.turnTimeoutMs } : {}),
    client: { apiKey: secret, baseURL: settings.view.baseUrl ?? defaultBaseUrl, maxRetries: 0, timeout: options.timeoutMs, logLevel: 'off', ...(options.fetch ? { fetch: options.fetch } : {}) },
    call(request, toParams, attempt, classify) {
      const model = request.model.length > 0 ? request.model : defaultModel;
      if (!model) return Promise.reject(providerError(provider, 'bad_request', 'no model given (request.model or the model setting)', secret, undefined, 0));
      let params: ReturnType<typeof toParams>;
      try {
        params = toParams(request, model);
      } catch (err) {
        // A request that cannot be sent (bad tool-call JSON, too many breakpoints) fails before any call.
        if (err instanceof InvalidRequestError) return Promise.reject(providerError(provider, 'bad_request', err.message.startsWith(`${provider}: `) ? err.message.slice(provider.length + 2) : err.message, secret, undefined, 0));
        return Promise.reject(err);
      }
      const budgets = [options.turnTimeoutMs, request.timeBudgetMs].filter((b): b is number => b !== undefined);
      let retries = 0;
      return runWithRetries({
        provider,
        policy,
        timeoutMs: options.timeoutMs,
        ...(budgets.length > 0 ? { deadlineMs: Math.max(0, Math.min(...budgets)), limitName: options.timeLimitName ?? 'the time limit' } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        onRetry: (info) => {
          retries++;
          options.onRetry?.(info);
        },
        classify: (err, state) => classify(err, state, secret),
        attempt: (ctx) => attempt(params, ctx),
      }).then((response) => ({ ...response, retries }));
    },
  };
}
