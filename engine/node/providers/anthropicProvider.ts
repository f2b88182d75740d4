import Anthropic, { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ContextLimitError } from '../../refresh/ContextLimitError';
import { fromAnthropicMessage, toAnthropicParams } from './anthropicMapping';
import {
  type ApiFailure,
  type Classified,
  contextLimitError,
  isAnthropicContextLimit,
  MalformedResponseError,
  parseAnthropicContextLimit,
  parseRetryAfter,
  providerError,
  providerErrorFromApi,
} from '../../providers/errors';
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse } from '../../providers/Provider';
import type { AttemptState } from './retry';
import { sdkAdapterFrame, type SdkAdapterOptions } from './sdkAdapter';

/**
 * The Anthropic adapter of the provider port, over the official `@anthropic-ai/sdk` (messages).
 * Cache breakpoints become `cache_control` (system blocks flagged `cacheBreakpoint`, and the end
 * of the stable history); streaming goes through the SDK's `messages.stream` helper. The SDK's
 * own retries are off; `runWithRetries` does bounded, jittered retries honouring `retry-after`.
 * The key lives only in the SDK client, inside this closure.
 */

/** Options of the Anthropic adapter: the key falls back to `ANTHROPIC_API_KEY`, the base URL (without /v1) to `ANTHROPIC_BASE_URL`. */
export type AnthropicProviderOptions = SdkAdapterOptions;

const PROVIDER = 'anthropic';
const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const frame = sdkAdapterFrame(PROVIDER, 'ANTHROPIC_API_KEY', ANTHROPIC_DEFAULT_BASE_URL, options);
  const client = new Anthropic(frame.client);

  function complete(request: ProviderRequest): Promise<ProviderResponse> {
    return frame.call(
      request,
      toAnthropicParams,
      async (params, { signal, touch }) => {
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
      classifyAnthropicError,
    );
  }

  const provider: Provider = { name: PROVIDER, complete, ...(frame.turnTimeoutMs !== undefined ? { turnTimeoutMs: frame.turnTimeoutMs } : {}) };
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
function classifyAnthropicError(err: unknown, state: AttemptState, secret?: string): Classified {
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
