/**
 * The provider refused a prompt because it exceeds the model's context window (Anthropic
 * "prompt is too long", OpenAI `context_length_exceeded`). Providers map their error to this
 * type; the runtime hands it to `Engine.maybeRefresh` instead of failing the task (`[refresh-on-limit]`).
 */
export class ContextLimitError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly promptTokens?: number,
    readonly limit?: number,
    /** Calls made before the refusal (1 unless retryable failures came first; `[provider-retries-counted]`). */
    readonly attempts = 1,
  ) {
    super(message);
    this.name = 'ContextLimitError';
  }
}

export function isContextLimitError(err: unknown): err is ContextLimitError {
  return err instanceof ContextLimitError || (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'ContextLimitError');
}
