import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/conversation/Message';
import { countCacheBreakpoints } from '../../../engine/node/providers/anthropicMapping';
import { type AnthropicProviderOptions, createAnthropicProvider } from '../../../engine/node/providers/anthropicProvider';
import { ProviderError } from '../../../engine/providers/Provider';
import type { RetryInfo } from '../../../engine/node/providers/retry';
import { ContextLimitError } from '../../../engine/refresh/ContextLimitError';
import { ANSWERING_SERVER_TIMEOUT_MS } from '../../support/testTimeouts.mjs';
import { type AnthropicLoopback, startAnthropicLoopback } from '../../support/loopback';
import { filler, KEY, recordingSleep, rejectionOf, request, toolTurn } from './fixtures';

let server: AnthropicLoopback;

beforeEach(async () => {
  server = await startAnthropicLoopback();
});

afterEach(async () => {
  await server.close();
});

function provider(extra: Partial<AnthropicProviderOptions> = {}) {
  return createAnthropicProvider({ apiKey: KEY, baseURL: server.url, timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 2, retryBaseMs: 100, sleep: async () => {}, random: () => 0.5, env: {}, ...extra });
}

const assertNoKey = (value: unknown) => {
  const text = typeof value === 'string' ? value : `${JSON.stringify(value)} ${String(value)} ${inspect(value)}`;
  expect(text).not.toContain(KEY);
};

const EPHEMERAL = { type: 'ephemeral' };
/** The key a request carried: SDK 1.x sends it as `Authorization: Bearer`, older ones as `x-api-key`. */
const keyOf = (headers: Record<string, string>) => headers['x-api-key'] ?? headers['authorization']?.replace(/^Bearer /, '');

describe('[providers] anthropic adapter against a loopback server through the real SDK', () => {
  it('[providers] maps a plain completion: system text blocks, cache_control on flagged blocks, tools with input_schema', async () => {
    server.enqueue({ kind: 'text', text: 'In engine/prompt/key.ts.' });
    const req = request({ system: [{ text: filler('L0', 6000), cacheBreakpoint: true }, { text: 'volatile tail of the system prompt', cacheBreakpoint: false }] });
    const res = await provider().complete(req);

    expect(res).toMatchObject({ text: 'In engine/prompt/key.ts.', toolCalls: [], model: 'test-model', stopReason: 'end_turn' });
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(keyOf(sent.headers)).toBe(KEY);
    expect(sent.headers['anthropic-version']).toBeDefined();
    expect(sent.body.max_tokens).toBe(512);
    expect(sent.body.system).toEqual([
      { type: 'text', text: req.system[0]!.text, cache_control: EPHEMERAL },
      { type: 'text', text: 'volatile tail of the system prompt' },
    ]);
    expect(sent.body.tools).toEqual([
      { name: 'read_file', description: 'Read a file of the workspace.', input_schema: req.tools[0]!.parameters },
      { name: 'grep', description: 'Search the workspace.', input_schema: req.tools[1]!.parameters },
    ]);
    // The history breakpoint sits on the user message, not on the transient after it (merged into the same user turn).
    expect(sent.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Where is the cache key computed?', cache_control: EPHEMERAL },
          { type: 'text', text: 'Recalled: cache keys live in engine/prompt.' },
        ],
      },
    ]);
  });

  it('[providers] round-trips tool calls: tool_use input is the parsed JSON, results go first in the next user message', async () => {
    server.enqueue({
      kind: 'toolCalls',
      text: 'Reading.',
      calls: [
        { id: 'toolu_a', name: 'read_file', arguments: { path: 'engine/prompt/key.ts' } },
        { id: 'toolu_b', name: 'grep', arguments: { pattern: 'hash\\(', glob: '*.ts' } },
      ],
    });
    const first = await provider().complete(request());
    expect(first.stopReason).toBe('tool_use');
    expect(first.text).toBe('Reading.');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_a', name: 'read_file', arguments: '{"path":"engine/prompt/key.ts"}' },
      { id: 'toolu_b', name: 'grep', arguments: '{"pattern":"hash\\\\(","glob":"*.ts"}' },
    ]);

    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'Where is the cache key computed?' },
      { id: 'a1', role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { id: 'r1', role: 'tool', toolCallId: 'toolu_a', content: 'export const key = hash(prefix);', isError: false },
      { id: 'r2', role: 'tool', toolCallId: 'toolu_b', content: 'no match', isError: true },
      { id: 't1', role: 'user', kind: 'transient', source: 'runtime', content: 'Runtime: 3 tool calls left.' },
    ];
    await provider().complete(request({ messages }));
    expect(server.requests[1]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Where is the cache key computed?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'engine/prompt/key.ts' } },
          { type: 'tool_use', id: 'toolu_b', name: 'grep', input: { pattern: 'hash\\(', glob: '*.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'export const key = hash(prefix);' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'no match', is_error: true, cache_control: EPHEMERAL },
          { type: 'text', text: 'Runtime: 3 tool calls left.' },
        ],
      },
    ]);
  });

  it('[providers] places breakpoints exactly: flagged system blocks, the last history block before the transients, never more than 4', async () => {
    const messages: Message[] = [
      ...toolTurn().slice(0, 3),
      { id: 'a2', role: 'assistant', content: 'It hashes the prefix.', toolCalls: [] },
      { id: 'u2', role: 'user', content: 'And where is it used?' },
      { id: 't1', role: 'user', kind: 'transient', source: 'memory', content: 'Recalled: used by the packer.' },
      { id: 't2', role: 'user', kind: 'transient', source: 'skills', content: 'Skill: packer conventions.' },
    ];
    const system = [
      { text: filler('L0', 5000), cacheBreakpoint: true },
      { text: filler('L1', 800), cacheBreakpoint: true },
      { text: filler('L2', 800), cacheBreakpoint: true },
    ];
    await provider().complete(request({ system, messages }));
    const body = server.requests[0]!.body;
    expect(body.system.map((b: { cache_control?: unknown }) => b.cache_control)).toEqual([EPHEMERAL, EPHEMERAL, EPHEMERAL]);
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'And where is it used?', cache_control: EPHEMERAL },
        { type: 'text', text: 'Recalled: used by the packer.' },
        { type: 'text', text: 'Skill: packer conventions.' },
      ],
    });
    expect(countCacheBreakpoints(body)).toBe(4);

    // Without historyBreakpoint only the system breakpoints go out.
    await provider().complete(request({ system, messages, historyBreakpoint: false }));
    expect(countCacheBreakpoints(server.requests[1]!.body)).toBe(3);
  });

  it('[providers] refuses more than 4 breakpoints before any network call', async () => {
    const system = [1, 2, 3, 4].map((i) => ({ text: `block ${i}`, cacheBreakpoint: true }));
    const err = await rejectionOf(() => provider().complete(request({ system })));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'bad_request', attempts: 0 });
    expect((err as Error).message).toMatch(/5 cache breakpoints.*at most 4/);
    expect(server.requests).toHaveLength(0);
  });

  it('[providers] refuses tool-call arguments that are not JSON before any network call', async () => {
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'go' },
      { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'toolu_bad', name: 'read_file', arguments: '{"path": ' }] },
      { id: 'r1', role: 'tool', toolCallId: 'toolu_bad', content: 'x', isError: false },
    ];
    const err = await rejectionOf(() => provider().complete(request({ messages })));
    expect(err).toMatchObject({ name: 'ProviderError', kind: 'bad_request', attempts: 0 });
    expect((err as Error).message).toContain('toolu_bad');
    expect((err as Error).message).toContain('not valid JSON');
    expect(server.requests).toHaveLength(0);
  });

  it('[providers] streaming (the SDK stream helper) assembles the same response as non-streaming', async () => {
    const reply = {
      kind: 'toolCalls' as const,
      text: 'I will read two files, then search the workspace for the hash function.',
      calls: [
        { id: 'toolu_x', name: 'read_file', arguments: { path: 'engine/providers/Provider.ts' } },
        { id: 'toolu_y', name: 'grep', arguments: { pattern: 'cache_control', glob: '**/*.ts' } },
      ],
    };
    server.enqueue(reply);
    const plain = await provider().complete(request());
    server.resetCache();
    server.enqueue(reply);
    const streamed = await provider().complete(request({ stream: true }));
    expect(server.requests[1]!.body.stream).toBe(true);
    expect(streamed).toEqual(plain);
    expect(streamed.usage.cacheWrite).toBeGreaterThan(0);
  });

  it.each([false, true])('[providers] normalises usage: input_tokens, cache_read_input_tokens, cache_creation_input_tokens (stream %s)', async (stream) => {
    const p = provider();
    const first = await p.complete(request({ stream }));
    const again = await p.complete(request({ stream }));
    const longer = await p.complete(request({ stream, messages: toolTurn() }));

    const wire = (i: number) => server.requests[i]!.usage as { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number };
    const expected = (i: number) => ({ input: wire(i).input_tokens, cacheRead: wire(i).cache_read_input_tokens, cacheWrite: wire(i).cache_creation_input_tokens, output: wire(i).output_tokens });
    expect([first.usage, again.usage, longer.usage]).toEqual([expected(0), expected(1), expected(2)]);

    // First call writes the breakpointed prefix; the same prompt reads all of it; a longer history
    // reads the old prefix and writes only the new part up to its history breakpoint.
    expect(first.usage.cacheRead).toBe(0);
    expect(first.usage.cacheWrite).toBeGreaterThan(1024);
    expect(again.usage).toMatchObject({ cacheRead: first.usage.cacheWrite, cacheWrite: 0, input: first.usage.input });
    expect(longer.usage.cacheRead).toBe(first.usage.cacheWrite);
    expect(longer.usage.cacheWrite).toBeGreaterThan(0);
    expect(longer.usage.cacheWrite).toBeLessThan(first.usage.cacheWrite);
  });

  it('[providers] maps "prompt is too long" to ContextLimitError with the token numbers, without retrying', async () => {
    server.enqueue({ kind: 'contextLimit', promptTokens: 208310, limit: 200000 });
    const err = await rejectionOf(() => provider().complete(request()));
    expect(err).toBeInstanceOf(ContextLimitError);
    expect(err).toMatchObject({ provider: 'anthropic', promptTokens: 208310, limit: 200000 });
    expect(server.requests).toHaveLength(1);

    server.enqueue({ kind: 'contextLimit', promptTokens: 250000, limit: 200000 });
    const streamed = await rejectionOf(() => provider().complete(request({ stream: true })));
    expect(streamed).toMatchObject({ name: 'ContextLimitError', promptTokens: 250000 });
  });

  it('[providers] retries a 429 after retry-after and a 529 overload with backoff, then succeeds', async () => {
    const { sleep, delays } = recordingSleep();
    const retries: RetryInfo[] = [];
    server.enqueue({ kind: 'rateLimit', retryAfterSeconds: 3 }, { kind: 'serverError', status: 529 }, { kind: 'text', text: 'finally' });
    const res = await provider({ sleep, onRetry: (i) => retries.push(i), random: () => 0.25, retryBaseMs: 400 }).complete(request({ stream: true }));
    expect(res.text).toBe('finally');
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([3000, 200]);
    expect(retries.map((r) => [r.kind, r.status, r.fromRetryAfter])).toEqual([
      ['rate_limited', 429, true],
      ['server', 529, false],
    ]);
  });

  it('[providers] a 500 that outlasts the bound fails as ProviderError(server) with attempts = maxRetries + 1', async () => {
    const { sleep, delays } = recordingSleep();
    server.setDefault({ kind: 'serverError' });
    const err = await rejectionOf(() => provider({ sleep, maxRetries: 2 }).complete(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'server', status: 500, attempts: 3 });
    expect((err as Error).message).toContain('after 3 attempts');
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([50, 100]);
  });

  // The attempts are cut by the 150 ms idle timer, not by the SDK's own minutes-long default (which
  // would outlast the test's limit): each retry says so in attemptTimeoutMs. No stopwatch.
  it.each([false, true])('[providers] a hung server times out as ProviderError(timeout) at timeoutMs (stream %s)', async (stream) => {
    server.setDefault({ kind: 'hang', afterFirstChunk: true });
    const retries: RetryInfo[] = [];
    const err = await rejectionOf(() => provider({ timeoutMs: 150, maxRetries: 1, onRetry: (i) => retries.push(i) }).complete(request({ stream })));
    expect(err).toMatchObject({ name: 'ProviderError', kind: 'timeout', attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(retries.map((i) => [i.attempt, i.kind, i.attemptTimeoutMs])).toEqual([[1, 'timeout', 150]]);
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

  it('[providers] an error event inside the stream (overloaded) is retried', async () => {
    server.enqueue({ kind: 'streamError' }, { kind: 'text', text: 'recovered' });
    const res = await provider().complete(request({ stream: true }));
    expect(res.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('[providers] a 401 is ProviderError(auth), never retried, and the key the server echoed is not in the error', async () => {
    await server.close();
    server = await startAnthropicLoopback({ expectedKey: 'sk-ant-the-right-one', echoKeyInAuthError: true });
    const err = await rejectionOf(() => provider().complete(request()));
    expect(err).toMatchObject({ name: 'ProviderError', kind: 'auth', status: 401, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    // The server answered 401 and put the full key it received into its message.
    expect(server.requests[0]!.reply.kind).toBe('auth');
    expect(keyOf(server.requests[0]!.headers)).toBe(KEY);
    assertNoKey((err as Error).message);
    assertNoKey((err as Error).stack);
    assertNoKey(err);
  });

  it('[providers] the key never leaks: not in the provider object, its JSON, or any error it throws', async () => {
    const p = provider({ maxRetries: 0 });
    assertNoKey(p);
    expect(JSON.parse(JSON.stringify(p))).toEqual({ name: 'anthropic' });
    server.enqueue({ kind: 'serverError' }, { kind: 'contextLimit' }, { kind: 'malformed' }, { kind: 'rateLimit' }, { kind: 'auth' });
    for (let i = 0; i < 5; i += 1) {
      const err = await rejectionOf(() => p.complete(request({ stream: i % 2 === 0 })));
      assertNoKey((err as Error).message);
      assertNoKey((err as Error).stack);
      assertNoKey(err);
    }
  });

  it('[providers] falls back to ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY', async () => {
    const p = createAnthropicProvider({ timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 0, retryBaseMs: 1, env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY } });
    expect((await p.complete(request())).text).toBe('ok');
    expect(keyOf(server.requests[0]!.headers)).toBe(KEY);
    expect(() => createAnthropicProvider({ timeoutMs: 10, maxRetries: 0, retryBaseMs: 1, env: {} })).toThrow(/no API key/);
  });
});
