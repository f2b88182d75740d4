import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../../engine/providers/Provider';
import type { Classified } from '../../../../engine/providers/errors';
import { backoffDelay, defaultSleep, retryDelay, type RetryInfo, type RetryPolicy, runWithRetries } from '../../../../engine/providers/retry';
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
});
