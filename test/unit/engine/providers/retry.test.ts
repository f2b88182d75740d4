import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../../engine/providers/Provider';
import type { Classified } from '../../../../engine/providers/errors';
import { backoffDelay, defaultSleep, retryDelay, type RetryInfo, type RetryPolicy, runWithRetries } from '../../../../engine/node/providers/retry';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy & { delays: number[] } => {
  const delays: number[] = [];
  return {
    maxRetries: 3,
    retryBaseMs: 100,
    maxBackoffMs: 1000,
    maxRetryAfterMs: 5000,
    random: () => 1,
    sleep: async (ms) => {
      delays.push(ms);
    },
    delays,
    ...overrides,
  };
};

const fail = (kind: ProviderError['kind'], retryAfterMs?: number): Classified => ({ error: new ProviderError(kind, `p: ${kind}`, 'p', kind === 'server' ? 500 : undefined), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('[providers] bounded retries', () => {
  it('[providers] full-jitter backoff: uniform under a ceiling that doubles per retry and is capped', () => {
    const p = { retryBaseMs: 100, maxBackoffMs: 1000, maxRetryAfterMs: 5000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, { ...p, random: () => 0.999999 }))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelay(3, { ...p, random: () => 0 })).toBe(0);
    expect(backoffDelay(2, { ...p, random: () => 0.5 })).toBe(100);
    expect(retryDelay(1, 2000, { ...p, random: () => 0.5 })).toBe(2000);
    expect(retryDelay(1, 60_000, { ...p, random: () => 0.5 })).toBe(5000);
  });

  it('[providers] retries retryable failures and reports each retry', async () => {
    const p = policy();
    const infos: RetryInfo[] = [];
    let calls = 0;
    const out = await runWithRetries({
      provider: 'p',
      policy: p,
      timeoutMs: 1000,
      onRetry: (i) => infos.push(i),
      attempt: async () => {
        calls += 1;
        if (calls < 3) throw new Error(calls === 1 ? 'server' : 'rate');
        return 'ok';
      },
      classify: (err) => ((err as Error).message === 'server' ? fail('server') : fail('rate_limited', 1500)),
    });
    expect(out).toBe('ok');
    expect(p.delays).toEqual([100, 1500]);
    expect(infos.map((i) => [i.attempt, i.kind, i.delayMs, i.fromRetryAfter])).toEqual([
      [1, 'server', 100, false],
      [2, 'rate_limited', 1500, true],
    ]);
  });

  it('[providers] stops at maxRetries + 1 attempts and says so', async () => {
    const p = policy({ maxRetries: 2 });
    let calls = 0;
    const err = await runWithRetries({
      provider: 'p',
      policy: p,
      timeoutMs: 1000,
      attempt: async () => {
        calls += 1;
        throw new Error('x');
      },
      classify: () => fail('server'),
    }).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(err).toMatchObject({ kind: 'server', attempts: 3, status: 500 });
    expect((err as Error).message).toBe('p: server (after 3 attempts)');
  });

  it('[providers] never retries auth, bad requests, malformed bodies or a context limit', async () => {
    for (const classified of [fail('auth'), fail('bad_request'), fail('malformed'), { error: new ContextLimitError('too long', 'p', 10, 5) }]) {
      let calls = 0;
      const err = await runWithRetries({
        provider: 'p',
        policy: policy(),
        timeoutMs: 1000,
        attempt: async () => {
          calls += 1;
          throw new Error('x');
        },
        classify: () => classified,
      }).catch((e: unknown) => e);
      expect(calls).toBe(1);
      expect(err).toBeInstanceOf(classified.error.constructor);
    }
  });

  it('[providers] each attempt has an idle deadline that progress restarts', async () => {
    vi.useFakeTimers();
    try {
      const seen: boolean[] = [];
      const timedOut = runWithRetries({
        provider: 'p',
        policy: policy({ maxRetries: 0 }),
        timeoutMs: 100,
        attempt: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
        classify: (_e, state) => {
          seen.push(state.timedOut);
          return { error: new ProviderError(state.timedOut ? 'timeout' : 'connection', 'p: t', 'p') };
        },
      }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(100);
      expect(await timedOut).toMatchObject({ kind: 'timeout', attempts: 1 });
      expect(seen).toEqual([true]);

      // Progress every 60 ms keeps a 100 ms idle deadline from firing over 300 ms.
      const progressing = runWithRetries({
        provider: 'p',
        policy: policy({ maxRetries: 0 }),
        timeoutMs: 100,
        attempt: async ({ touch, signal }) => {
          for (let i = 0; i < 5; i += 1) {
            await new Promise((r) => setTimeout(r, 60));
            touch();
          }
          return signal.aborted ? 'aborted' : 'done';
        },
        classify: () => fail('timeout'),
      });
      await vi.advanceTimersByTimeAsync(400);
      expect(await progressing).toBe('done');
    } finally {
      vi.useRealTimers();
    }
  });

  it('[providers] a cancel stops the attempt and the wait before a retry', async () => {
    const controller = new AbortController();
    const err = await runWithRetries({
      provider: 'p',
      policy: policy({ sleep: defaultSleep, retryBaseMs: 10_000, random: () => 1 }),
      timeoutMs: 1000,
      signal: controller.signal,
      attempt: async () => {
        setTimeout(() => controller.abort(), 10);
        throw new Error('x');
      },
      classify: () => fail('server'),
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'cancelled', attempts: 1 });

    const already = new AbortController();
    already.abort();
    const none = await runWithRetries({ provider: 'p', policy: policy(), timeoutMs: 10, signal: already.signal, attempt: async () => 'x', classify: () => fail('server') }).catch((e: unknown) => e);
    expect(none).toMatchObject({ kind: 'cancelled', attempts: 0 });
  });

  it('[provider-time-limit] deadlineMs bounds the whole call: each attempt gets at most what is left, a retry that would not fit is not started, and the error names the limit', async () => {
    vi.useFakeTimers();
    try {
      const timeouts: number[] = [];
      const infos: RetryInfo[] = [];
      let attempts = 0;
      const started = Date.now();
      let ended = Number.NaN;
      const silent = runWithRetries({
        provider: 'p',
        // Real (fake-timer) sleeps and clock: the deadline is measured, not assumed.
        policy: policy({ maxRetries: 10, retryBaseMs: 100, random: () => 1, sleep: defaultSleep, now: () => Date.now() }),
        timeoutMs: 400,
        deadlineMs: 1000,
        limitName: '[providers] turn_timeout_ms',
        onRetry: (i) => infos.push(i),
        attempt: ({ signal }) => {
          attempts += 1;
          const at = Date.now();
          return new Promise((_, reject) => signal.addEventListener('abort', () => (timeouts.push(Date.now() - at), reject(new Error('aborted')))));
        },
        classify: (_e, state) => ({ error: new ProviderError(state.timedOut ? 'timeout' : 'connection', 'p: timed out: no response within the timeout', 'p') }),
      }).catch((e: unknown) => ((ended = Date.now()), e));
      await vi.advanceTimersByTimeAsync(5_000);
      const err = (await silent) as ProviderError;
      // 400 ms, a 100 ms wait, 400 ms, a 200 ms wait would leave 0: two attempts, then no time for a third.
      expect(timeouts).toEqual([400, 400]);
      expect(attempts).toBe(2);
      expect(ended - started).toBeLessThanOrEqual(1000);
      expect(err).toMatchObject({ kind: 'timeout', attempts: 2 });
      expect(err.message).toMatch(/1 s \(\[providers\] turn_timeout_ms\)/);
      expect(infos.map((i) => [i.attempt, i.kind, i.attemptTimeoutMs])).toEqual([[1, 'timeout', 400]]);

      // With less left than the idle deadline, the last attempt is cut at the limit, and says so.
      const cut: number[] = [];
      const clipped = runWithRetries({
        provider: 'p',
        policy: policy({ maxRetries: 10, retryBaseMs: 1, random: () => 0, sleep: defaultSleep, now: () => Date.now() }),
        timeoutMs: 400,
        deadlineMs: 600,
        limitName: 'the limit',
        attempt: ({ signal }) => {
          const at = Date.now();
          return new Promise((_, reject) => signal.addEventListener('abort', () => (cut.push(Date.now() - at), reject(new Error('aborted')))));
        },
        classify: (_e, state) => ({ error: new ProviderError(state.timedOut ? 'timeout' : 'connection', 'p: timed out', 'p') }),
      }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(cut).toHaveLength(2);
      expect(cut[0]).toBe(400);
      // The second gets what is left of 600 ms (the zero wait between costs the fake clock 1 ms).
      expect(cut[1]).toBeGreaterThanOrEqual(199);
      expect(cut[0]! + cut[1]!).toBeLessThanOrEqual(600);
      expect(((await clipped) as Error).message).toMatch(/no answer within 0\.6 s \(the limit\)/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('[provider-retries-counted] a context limit after retries says how many attempts it took', async () => {
    let calls = 0;
    const err = await runWithRetries({
      provider: 'p',
      policy: policy(),
      timeoutMs: 1000,
      attempt: async () => {
        calls += 1;
        throw new Error(calls === 1 ? 'server' : 'limit');
      },
      classify: (e) => ((e as Error).message === 'server' ? fail('server') : { error: new ContextLimitError('p: context limit exceeded', 'p', 210, 200) }),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextLimitError);
    expect(err).toMatchObject({ attempts: 2, promptTokens: 210, limit: 200 });
  });
});
