import type { AbortSignalLike } from '../ports/AbortSignalLike';
import type { Message, ToolCall } from '../conversation/Message';

/**
 * The provider port of the runtime: one model call, provider-neutral. Adapters (`openaiProvider`,
 * `anthropicProvider`) map it to their official SDK and back. Nothing here holds an API key: keys
 * live in the adapter's client and never reach a request, a response, an error, a log or an event.
 */

/** One block of the system prompt, in cache order (L0+L1 static, then L2, then the conversation summary). */
export interface SystemBlock {
  text: string;
  /** End a cacheable prefix here (Anthropic `cache_control`; OpenAI caches prefixes automatically). */
  cacheBreakpoint: boolean;
}

/** A tool the model may call: name, description and the JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  system: SystemBlock[];
  /**
   * The conversation: user, assistant and tool messages in provider-valid order (as the
   * ContextManager builds them, transients last). System-role messages are not allowed here:
   * they belong in `system`.
   */
  messages: Message[];
  /**
   * Put a breakpoint on the last message before the trailing transients (the end of the stable
   * history), so the conversation prefix caches too. With the system breakpoints, never more than 4.
   */
  historyBreakpoint: boolean;
  tools: ToolSpec[];
  maxOutputTokens: number;
  /** OpenAI `prompt_cache_key` (the agent id keeps one agent's calls on one cache shard). */
  cacheKey?: string;
  /** Stream the answer (the result is the same assembled response). */
  stream?: boolean;
  signal?: AbortSignalLike;
  /**
   * What is left of the turn's provider time (`[provider-time-limit]`): this call, its retries and
   * their waits end within it. A driver passes it when a turn makes more than one call.
   */
  timeBudgetMs?: number;
}

/**
 * Usage as the provider reported it, normalised: `input` is the UNCACHED input tokens (OpenAI
 * reports cached tokens inside `prompt_tokens`, so they are subtracted; Anthropic reports them
 * apart), `cacheRead` the tokens served from the cache, `cacheWrite` the tokens written to it
 * (Anthropic only; OpenAI writes implicitly and reports 0). Total prompt = input + cacheRead + cacheWrite.
 */
export interface Usage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface ProviderResponse {
  /** Assistant text (text blocks joined). */
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The model the provider says answered. */
  model: string;
  /** Why generation stopped, as the provider said it (`end_turn`, `tool_use`, `stop`, `tool_calls`, `length`…). */
  stopReason: string;
  /** HTTP retries this answer needed: calls made before the one that answered (`[provider-retries-counted]`). */
  retries?: number;
}

/** Kinds of provider failure other than the context limit (which is `ContextLimitError`). */
export type ProviderErrorKind = 'rate_limited' | 'server' | 'timeout' | 'connection' | 'malformed' | 'auth' | 'bad_request' | 'cancelled';

/**
 * A failed call, with the key never in its message. `retryable` is true for rate limits, server
 * errors, timeouts and connection failures; `attempts` is how many calls were made in all.
 */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly provider: string,
    readonly status?: number,
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'server' || this.kind === 'timeout' || this.kind === 'connection';
  }
}

export interface Provider {
  /** `openai` or `anthropic`. */
  readonly name: string;
  /** The turn's provider time limit this provider holds every call to, when it has one (`[provider-time-limit]`). */
  readonly turnTimeoutMs?: number;
  /**
   * One call. Resolves with the assembled response; rejects with `ContextLimitError` when the
   * prompt is over the model's window, or `ProviderError` for anything else (after bounded
   * retries of retryable failures). Never rejects with a raw SDK error.
   */
  complete(request: ProviderRequest): Promise<ProviderResponse>;
}

/** What settings say about a provider; `keyPresent`, never the key. */
export interface ProviderSettingsView {
  provider: 'openai' | 'anthropic';
  baseUrl: string | null;
  model: string | null;
  keyPresent: boolean;
}
