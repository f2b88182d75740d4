import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../../engine/node/providers/openaiProvider';
import { ProviderError, type ProviderResponse } from '../../../engine/providers/Provider';
import type { RetryInfo } from '../../../engine/node/providers/retry';
import { ContextLimitError } from '../../../engine/refresh/ContextLimitError';
import { ANSWERING_SERVER_TIMEOUT_MS } from '../../support/testTimeouts.mjs';
import { type OpenAILoopback, startOpenAILoopback } from '../../support/loopback';
import { KEY, recordingSleep, rejectionOf, request, toolTurn } from './fixtures';

let server: OpenAILoopback;

beforeEach(async () => {
  server = await startOpenAILoopback();
});

afterEach(async () => {
  await server.close();
});

function provider(extra: Partial<OpenAIProviderOptions> = {}) {
  return createOpenAIProvider({ apiKey: KEY, baseURL: server.url, timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 2, retryBaseMs: 100, sleep: async () => {}, random: () => 0.5, env: {}, ...extra });
}

const assertNoKey = (value: unknown) => {
  const text = typeof value === 'string' ? value : `${JSON.stringify(value)} ${String(value)} ${inspect(value)}`;
  expect(text).not.toContain(KEY);
};

describe('[providers] openai adapter against a loopback server through the real SDK', () => {
  it('[providers] maps a plain completion: one joined system message, user/transient messages, function tools, prompt_cache_key', async () => {
    server.enqueue({ kind: 'text', text: 'The key is computed in engine/prompt/key.ts.' });
    const req = request();
    const res = await provider().complete(req);

    expect(res.text).toBe('The key is computed in engine/prompt/key.ts.');
    expect(res.toolCalls).toEqual([]);
    expect(res.model).toBe('test-model');
    expect(res.stopReason).toBe('stop');

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.stream).toBeUndefined();
    expect(sent.body.max_completion_tokens).toBe(512);
    expect(sent.body.prompt_cache_key).toBe('agent-7');
    expect(sent.body.messages).toEqual([
      { role: 'system', content: `${req.system[0]!.text}\n\n${req.system[1]!.text}` },
      { role: 'user', content: 'Where is the cache key computed?' },
      { role: 'user', content: 'Recalled: cache keys live in engine/prompt.' },
    ]);
    expect(sent.body.tools).toEqual([
      { type: 'function', function: { name: 'read_file', description: 'Read a file of the workspace.', parameters: req.tools[0]!.parameters } },
      { type: 'function', function: { name: 'grep', description: 'Search the workspace.', parameters: req.tools[1]!.parameters } },
    ]);
  });

  it('[providers] round-trips tool calls: arguments stay JSON text, assistant tool_calls are type function, results carry tool_call_id', async () => {
    server.enqueue({
      kind: 'toolCalls',
      text: '',
      calls: [
        { id: 'call_a', name: 'read_file', arguments: { path: 'engine/prompt/key.ts' } },
        { id: 'call_b', name: 'grep', arguments: '{"pattern":"hash\\\\(","glob":"*.ts"}' },
      ],
    });
    const first = await provider().complete(request());
    expect(first.stopReason).toBe('tool_calls');
    expect(first.text).toBe('');
    expect(first.toolCalls).toEqual([
      { id: 'call_a', name: 'read_file', arguments: '{"path":"engine/prompt/key.ts"}' },
      { id: 'call_b', name: 'grep', arguments: '{"pattern":"hash\\\\(","glob":"*.ts"}' },
    ]);

    server.enqueue({ kind: 'text', text: 'Found it.' });
    const second = await provider().complete(request({ messages: toolTurn() }));
    expect(second.text).toBe('Found it.');
    const messages = server.requests[1]!.body.messages;
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Where is the cache key computed?' },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"engine/prompt/key.ts"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'export const key = hash(prefix);' },
      { role: 'user', content: 'Runtime: 3 tool calls left.' },
    ]);
  });

  it('[providers] streaming assembles the same response as non-streaming (text, tool-call deltas by index, usage from the final chunk)', async () => {
    const reply = {
      kind: 'toolCalls' as const,
      text: 'I will read two files, then search the workspace for the hash function.',
      calls: [
        { id: 'call_x', name: 'read_file', arguments: { path: 'engine/providers/Provider.ts' } },
        { id: 'call_y', name: 'grep', arguments: { pattern: 'prompt_cache_key', glob: '**/*.ts' } },
      ],
    };
    server.enqueue(reply);
    const plain = await provider().complete(request());
    server.resetCache();
    server.enqueue(reply);
    const streamed = await provider().complete(request({ stream: true }));

    expect(server.requests[1]!.body.stream).toBe(true);
    expect(server.requests[1]!.body.stream_options).toEqual({ include_usage: true });
    expect(server.requests[1]!.headers['accept']).toBeDefined();
    expect(streamed).toEqual(plain);
    expect(streamed.usage.input).toBeGreaterThan(0);
    expect(streamed.toolCalls.map((c) => JSON.parse(c.arguments))).toEqual([{ path: 'engine/providers/Provider.ts' }, { pattern: 'prompt_cache_key', glob: '**/*.ts' }]);
  });

  it.each([false, true])('[providers] normalises usage: input = prompt_tokens − cached_tokens, cacheRead = cached_tokens (stream %s)', async (stream) => {
    const p = provider();
    const first = await p.complete(request({ stream }));
    const second = await p.complete(request({ stream, messages: toolTurn() }));

    const wire = (i: number) => server.requests[i]!.usage as { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
    const expected = (i: number) => ({
      input: wire(i).prompt_tokens - wire(i).prompt_tokens_details.cached_tokens,
      cacheRead: wire(i).prompt_tokens_details.cached_tokens,
      cacheWrite: 0,
      output: wire(i).completion_tokens,
    });
    expect(first.usage).toEqual(expected(0));
    expect(first.usage.cacheRead).toBe(0);
    expect(second.usage).toEqual(expected(1));
    // The shared prefix (system + first user message) is over 1024 tokens: cached in 128-token steps.
    expect(second.usage.cacheRead).toBeGreaterThanOrEqual(1024);
    expect(second.usage.cacheRead % 128).toBe(0);
    expect(second.usage.input).toBeGreaterThan(0);
  });

  it('[providers] maps the context-length error to ContextLimitError with the token numbers, without retrying', async () => {
    server.enqueue({ kind: 'contextLimit', promptTokens: 130512, limit: 128000 });
    const err = await rejectionOf(() => provider().complete(request()));
    expect(err).toBeInstanceOf(ContextLimitError);
    expect(err).toMatchObject({ name: 'ContextLimitError', provider: 'openai', promptTokens: 130512, limit: 128000 });
    expect(server.requests).toHaveLength(1);
  });

  it('[providers] retries a 429 after the server’s retry-after, then succeeds', async () => {
    const { sleep, delays } = recordingSleep();
    const retries: RetryInfo[] = [];
    server.enqueue({ kind: 'rateLimit', retryAfterSeconds: 2 }, { kind: 'text', text: 'after the wait' });
    const res = await provider({ sleep, onRetry: (i) => retries.push(i) }).complete(request());
    expect(res.text).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
    expect(retries).toEqual([{ provider: 'openai', attempt: 1, kind: 'rate_limited', status: 429, delayMs: 2000, fromRetryAfter: true }]);
  });

  it('[providers] backs off exponentially with full jitter when no retry-after is sent', async () => {
    const { sleep, delays } = recordingSleep();
    server.enqueue({ kind: 'serverError' }, { kind: 'rateLimit', retryAfterSeconds: null }, { kind: 'text', text: 'third time' });
    const res = await provider({ sleep, random: () => 0.5, retryBaseMs: 100 }).complete(request());
    expect(res.text).toBe('third time');
    // random 0.5 × ceiling 100, then 0.5 × 200.
    expect(delays).toEqual([50, 100]);
  });

  it('[providers] a 500 that outlasts the bound fails as ProviderError(server) with attempts = maxRetries + 1', async () => {
    const { sleep, delays } = recordingSleep();
    server.setDefault({ kind: 'serverError', status: 500 });
    const err = await rejectionOf(() => provider({ sleep, maxRetries: 3 }).complete(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'server', status: 500, attempts: 4, provider: 'openai', retryable: true });
    expect(server.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
  });

  // The attempts are cut by the 150 ms idle timer, not by the SDK's own minutes-long default (which
  // would outlast the test's limit): each retry says so in attemptTimeoutMs. No stopwatch.
  it('[providers] a hung server times out as ProviderError(timeout) at timeoutMs, retried within the bound', async () => {
    server.setDefault({ kind: 'hang' });
    const retries: RetryInfo[] = [];
    const err = await rejectionOf(() => provider({ timeoutMs: 150, maxRetries: 1, onRetry: (i) => retries.push(i) }).complete(request()));
    expect(err).toMatchObject({ name: 'ProviderError', kind: 'timeout', attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(retries.map((i) => [i.attempt, i.kind, i.attemptTimeoutMs])).toEqual([[1, 'timeout', 150]]);
  });

  it('[providers] a stream that stalls after its first chunk times out too', async () => {
    server.setDefault({ kind: 'hang', afterFirstChunk: true });
    const err = await rejectionOf(() => provider({ timeoutMs: 150, maxRetries: 0 }).complete(request({ stream: true })));
    expect(err).toMatchObject({ kind: 'timeout', attempts: 1 });
  });

  it.each([
    [false, 'truncated'],
    [false, 'shape'],
    [true, 'truncated'],
    [true, 'shape'],
  ] as const)('[providers] a malformed body is ProviderError(malformed), not retried (stream %s, %s)', async (stream, variant) => {
    server.enqueue({ kind: 'malformed', variant });
    const err = await rejectionOf(() => provider().complete(request({ stream })));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'malformed', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('[providers] an error inside the stream is a retryable server error', async () => {
    server.enqueue({ kind: 'streamError' }, { kind: 'text', text: 'recovered' });
    const res = await provider().complete(request({ stream: true }));
    expect(res.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('[providers] a 401 is ProviderError(auth), never retried, and the key the server echoed is not in the error', async () => {
    await server.close();
    server = await startOpenAILoopback({ expectedKey: 'sk-the-right-one', echoKeyInAuthError: true });
    const err = await rejectionOf(() => provider().complete(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'auth', status: 401, attempts: 1, retryable: false });
    expect(server.requests).toHaveLength(1);
    // The server answered 401 and put the full key it received into its message.
    expect(server.requests[0]!.reply.kind).toBe('auth');
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
    assertNoKey((err as Error).message);
    assertNoKey((err as Error).stack);
    assertNoKey(err);
  });

  it('[providers] the key never leaks: not in the provider object, its JSON, or any error it throws', async () => {
    const p = provider({ maxRetries: 0 });
    assertNoKey(p);
    expect(JSON.parse(JSON.stringify(p))).toEqual({ name: 'openai' });

    const thrown: unknown[] = [];
    server.enqueue({ kind: 'serverError' }, { kind: 'contextLimit' }, { kind: 'malformed' }, { kind: 'rateLimit' });
    for (let i = 0; i < 4; i += 1) thrown.push(await rejectionOf(() => p.complete(request())));
    server.enqueue({ kind: 'hang' });
    thrown.push(await rejectionOf(() => provider({ maxRetries: 0, timeoutMs: 100 }).complete(request())));
    for (const err of thrown) {
      assertNoKey((err as Error).message);
      assertNoKey((err as Error).stack);
      assertNoKey(err);
    }
  });

  it('[providers] a cancelled request rejects with ProviderError(cancelled) and is not retried', async () => {
    server.setDefault({ kind: 'hang' });
    const controller = new AbortController();
    const pending = provider({ timeoutMs: ANSWERING_SERVER_TIMEOUT_MS }).complete(request({ signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    const err = await rejectionOf(() => pending);
    expect(err).toMatchObject({ kind: 'cancelled', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('[providers] falls back to OPENAI_BASE_URL / OPENAI_API_KEY and refuses to start without a key', async () => {
    const p = createOpenAIProvider({ timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 0, retryBaseMs: 1, env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY } });
    const res: ProviderResponse = await p.complete(request());
    expect(res.text).toBe('ok');
    expect(server.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);

    expect(() => createOpenAIProvider({ timeoutMs: 10, maxRetries: 0, retryBaseMs: 1, env: {} })).toThrow(ProviderError);
  });

  it('[providers] uses the model setting when the request names none', async () => {
    await provider({ model: 'gpt-from-settings' }).complete(request({ model: '' }));
    expect(server.requests[0]!.body.model).toBe('gpt-from-settings');
  });
});
