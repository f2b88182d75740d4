import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { ContextLimitError } from '../../refresh/ContextLimitError';
import {
  type ApiFailure,
  type Classified,
  contextLimitError,
  isOpenAIContextLimit,
  MalformedResponseError,
  parseOpenAIContextLimit,
  parseRetryAfter,
  providerError,
  providerErrorFromApi,
} from '../../providers/errors';
import { fromOpenAICompletion, OpenAIStreamAssembler, toOpenAIParams } from './openaiMapping';
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse } from '../../providers/Provider';
import type { AttemptState } from './retry';
import { sdkAdapterFrame, type SdkAdapterOptions } from './sdkAdapter';

/**
 * The OpenAI adapter of the provider port, over the official `openai` SDK (chat completions).
 * The SDK's own retries are off; `runWithRetries` retries 429, 5xx, timeouts and connection
 * failures with full-jitter backoff and `retry-after`. The key lives only in the SDK client,
 * inside this closure: the returned object serialises to `{"name":"openai"}`.
 */

/** Options of the OpenAI adapter: the key falls back to `OPENAI_API_KEY`, the base URL (…/v1) to `OPENAI_BASE_URL`. */
export type OpenAIProviderOptions = SdkAdapterOptions;

const PROVIDER = 'openai';
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const frame = sdkAdapterFrame(PROVIDER, 'OPENAI_API_KEY', OPENAI_DEFAULT_BASE_URL, options);
  const client = new OpenAI(frame.client);

  function complete(request: ProviderRequest): Promise<ProviderResponse> {
    return frame.call(
      request,
      toOpenAIParams,
      async (params, { signal, touch }) => {
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
      classifyOpenAIError,
    );
  }

  const provider: Provider = { name: PROVIDER, complete, ...(frame.turnTimeoutMs !== undefined ? { turnTimeoutMs: frame.turnTimeoutMs } : {}) };
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
function classifyOpenAIError(err: unknown, state: AttemptState, secret?: string): Classified {
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
