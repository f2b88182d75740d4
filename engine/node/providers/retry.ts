import type { AbortSignalLike } from '../../ports/AbortSignalLike';
import { ContextLimitError } from '../../refresh/ContextLimitError';
import { ProviderError, type ProviderErrorKind } from '../../providers/Provider';
import type { Classified } from '../../providers/errors';

/**
 * Bounded retries for provider calls (the SDKs' own retries are off): exponential backoff with
 * full jitter, `retry-after` honoured, an idle deadline per attempt, and cancellation. Sleep and
 * random are injectable so tests are fast and deterministic.
 */

export type Sleep = (ms: number, signal?: AbortSignalLike) => Promise<void>;

export interface RetryPolicy {
  /** Retries after the first attempt: at most `maxRetries + 1` calls in all. */
  maxRetries: number;
  /** Backoff ceiling of the first retry; doubles per retry (full jitter: uniform in [0, ceiling)). */
  retryBaseMs: number;
  /** Upper bound of the backoff ceiling. */
  maxBackoffMs: number;
  /** A `retry-after` longer than this is clipped to it. */
  maxRetryAfterMs: number;
  random: () => number;
  sleep: Sleep;
  /** The clock the call's deadline is measured on (milliseconds); default `Date.now`. */
  now?: () => number;
}

export interface RetryInfo {
  provider: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  kind: ProviderErrorKind;
  status?: number;
  /** How long we wait before the next attempt. */
  delayMs: number;
  /** Whether the delay came from the server's `retry-after`. */
  fromRetryAfter: boolean;
  /** For a timed-out attempt: how long it waited for a response. */
  attemptTimeoutMs?: number;
}

export const DEFAULT_MAX_BACKOFF_MS = 30_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** A real sleep that an abort ends early (rejecting). */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The full-jitter backoff before retry number `retry` (1-based): `random() * min(max, base * 2^(retry-1))`. */
export function backoffDelay(retry: number, policy: Pick<RetryPolicy, 'retryBaseMs' | 'maxBackoffMs' | 'random'>): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.retryBaseMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(policy.random(), 0), 1);
  return Math.floor(r * ceiling);
}

/** The wait before retry `retry`: the server's `retry-after` (clipped) when given, else the jittered backoff. */
export function retryDelay(retry: number, retryAfterMs: number | undefined, policy: Pick<RetryPolicy, 'retryBaseMs' | 'maxBackoffMs' | 'maxRetryAfterMs' | 'random'>): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, Math.ceil(retryAfterMs)), policy.maxRetryAfterMs);
  return backoffDelay(retry, policy);
}

export interface AttemptContext {
  /** Aborted when the attempt times out or the caller cancels. */
  signal: AbortSignal;
  /** 1-based. */
  attempt: number;
  /** Progress (a stream chunk arrived): restarts the idle deadline. */
  touch(): void;
}

export interface AttemptState {
  /** The attempt's idle deadline fired. */
  timedOut: boolean;
  /** The caller's signal aborted. */
  cancelled: boolean;
}

export interface RunWithRetries<T> {
  provider: string;
  policy: RetryPolicy;
  /** Idle deadline of one attempt: no response (or, streaming, no chunk) for this long aborts it. */
  timeoutMs: number;
  /**
   * The whole call's time, attempts and waits together: an attempt gets at most what is left, a
   * retry whose wait would use it up is not started. Absent: only `maxRetries` bounds the call.
   */
  deadlineMs?: number;
  /** How messages name the deadline (`[providers] turn_timeout_ms`). */
  limitName?: string;
  /** The caller's cancellation. */
  signal?: AbortSignalLike;
  onRetry?: (info: RetryInfo) => void;
  attempt: (ctx: AttemptContext) => Promise<T>;
  /** Maps whatever the attempt threw; called with the attempt's timeout/cancel state. */
  classify: (err: unknown, state: AttemptState) => Classified;
}

function withAttempts(err: ProviderError, attempts: number, note = ''): ProviderError {
  const message = `${attempts > 1 ? `${err.message} (after ${attempts} attempts)` : err.message}${note}`;
  return new ProviderError(err.kind, message, err.provider, err.status, attempts);
}

/** `1 s`, `0.6 s`, `300 s`: a limit as a person reads it. */
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Runs `attempt` until it succeeds, fails with something not retryable, `maxRetries` retries are
 * spent or `deadlineMs` leaves no room for another (`[provider-time-limit]`). Rejects with
 * `ContextLimitError` (never retried) or a `ProviderError`, each with `attempts`: how many calls were made.
 */
export async function runWithRetries<T>(run: RunWithRetries<T>): Promise<T> {
  const { provider, policy, signal } = run;
  const total = Math.max(0, Math.floor(policy.maxRetries)) + 1;
  const now = policy.now ?? Date.now;
  const started = now();
  const deadline = run.deadlineMs;
  const limit = deadline === undefined ? '' : `${seconds(deadline)}${run.limitName ? ` (${run.limitName})` : ''}`;
  const left = () => (deadline === undefined ? Number.POSITIVE_INFINITY : deadline - (now() - started));
  for (let attempt = 1; ; attempt += 1) {
    if (signal?.aborted) throw new ProviderError('cancelled', `${provider}: cancelled`, provider, undefined, attempt - 1);

    const controller = new AbortController();
    const state: AttemptState = { timedOut: false, cancelled: false };
    // Each wait for a response is the idle deadline, or what is left of the call's time when less.
    const waitMs = Math.max(0, Math.min(run.timeoutMs, left()));
    const cutAtLimit = waitMs < run.timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        state.timedOut = true;
        controller.abort();
      }, Math.max(0, Math.min(run.timeoutMs, left())));
    };
    const onAbort = () => {
      state.cancelled = true;
      controller.abort();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();

    let failure: Classified;
    try {
      return await run.attempt({ signal: controller.signal, attempt, touch: arm });
    } catch (err) {
      state.cancelled ||= signal?.aborted === true;
      failure = run.classify(err, state);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    const refused = failure.error;
    if (refused instanceof ContextLimitError) {
      throw attempt > 1 ? new ContextLimitError(refused.message, refused.provider, refused.promptTokens, refused.limit, attempt) : refused;
    }
    let error: ProviderError = refused;
    if (error.kind === 'timeout' && state.timedOut && cutAtLimit) {
      error = new ProviderError('timeout', `${provider}: timed out: no answer within ${limit}`, provider, undefined, attempt);
    }
    if (!error.retryable || attempt >= total) throw withAttempts(error, attempt);

    const delayMs = retryDelay(attempt, failure.retryAfterMs, policy);
    if (delayMs >= left()) throw withAttempts(error, attempt, cutAtLimit ? '' : `; no time left for another attempt within ${limit}`);
    run.onRetry?.({
      provider,
      attempt,
      kind: error.kind,
      ...(error.status !== undefined ? { status: error.status } : {}),
      delayMs,
      fromRetryAfter: failure.retryAfterMs !== undefined,
      ...(error.kind === 'timeout' && state.timedOut ? { attemptTimeoutMs: waitMs } : {}),
    });
    try {
      await policy.sleep(delayMs, signal);
    } catch {
      throw new ProviderError('cancelled', `${provider}: cancelled while waiting to retry`, provider, undefined, attempt);
    }
  }
}
