import { describe, expect, it } from 'vitest';
import {
  AnthropicPromptCache,
  approxTokens,
  OpenAIPromptCache,
  serializeAnthropicPrompt,
  startAnthropicLoopback,
  startOpenAILoopback,
} from '../../support/loopback';

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

type Completion = { choices: { message: { content: string } }[] };

describe('[providers] loopback servers', () => {
  it('[providers] OpenAI cache simulation: cached = common prefix from 1024 tokens, rounded down to 128-token steps', () => {
    const cache = new OpenAIPromptCache();
    const base = 'x'.repeat(4 * 1100);
    expect(cache.measure(base)).toEqual({ promptTokens: 1100, cachedTokens: 0 });
    cache.remember(base);
    expect(cache.measure(`${base}more`)).toEqual({ promptTokens: 1101, cachedTokens: 1024 });
    expect(cache.measure(`${'x'.repeat(4 * 1000)}y`).cachedTokens).toBe(0);
    cache.remember('x'.repeat(4 * 1300));
    expect(cache.measure('x'.repeat(4 * 1400)).cachedTokens).toBe(1280);
  });

  it('[providers] Anthropic cache simulation: reads the longest written prefix up to the last breakpoint and writes the rest', () => {
    const cache = new AnthropicPromptCache(10);
    const body = (history: string[], bpOn: number) => ({
      system: [{ type: 'text', text: 's'.repeat(200), cache_control: { type: 'ephemeral' } }],
      messages: history.map((text, i) => ({ role: 'user', content: [{ type: 'text', text, ...(i === bpOn ? { cache_control: { type: 'ephemeral' } } : {}) }] })),
    });
    const one = serializeAnthropicPrompt(body(['a'.repeat(100), 'tail'], 0));
    expect(one.breakpoints).toHaveLength(2);
    const first = cache.measure(one);
    expect(first).toEqual({ input: approxTokens(one.text) - approxTokens(one.breakpoints[1]!), cacheRead: 0, cacheWrite: approxTokens(one.breakpoints[1]!) });
    cache.remember(one);

    const two = serializeAnthropicPrompt(body(['a'.repeat(100), 'b'.repeat(100), 'tail'], 1));
    const second = cache.measure(two);
    expect(second.cacheRead).toBe(first.cacheWrite);
    expect(second.cacheWrite).toBe(approxTokens(two.breakpoints[1]!) - first.cacheWrite);
    expect(second.input + second.cacheRead + second.cacheWrite).toBe(approxTokens(two.text));
  });

  it('[providers] captures bodies and headers, scripts a sequence, then falls back to the default; unknown paths get a 404', async () => {
    const server = await startOpenAILoopback({ defaultReply: { kind: 'text', text: 'default' } });
    try {
      server.enqueue({ kind: 'text', text: 'first' }, { kind: 'serverError', status: 503 });
      const url = `${server.url}/chat/completions`;
      const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
      const a = (await (await post(url, body, { authorization: 'Bearer k' })).json()) as Completion;
      const b = await post(url, body);
      const c = (await (await post(url, body)).json()) as Completion;
      expect(a.choices[0]!.message.content).toBe('first');
      expect(b.status).toBe(503);
      expect(c.choices[0]!.message.content).toBe('default');
      expect(server.requests.map((r) => r.reply.kind)).toEqual(['text', 'serverError', 'text']);
      expect(server.requests[0]!.headers['authorization']).toBe('Bearer k');
      expect(server.requests[0]!.body).toEqual(body);
      expect((await post(`${server.origin}/v1/embeddings`, {})).status).toBe(404);
      expect(server.pending()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('[providers] Anthropic streams the real event sequence and answers a wrong key with 401', async () => {
    const server = await startAnthropicLoopback({ expectedKey: 'right' });
    try {
      server.enqueue({ kind: 'toolCalls', text: 'hi', calls: [{ name: 'f', arguments: { a: 1 } }] });
      const res = await post(`${server.url}/v1/messages`, { model: 'c', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }, { 'x-api-key': 'right' });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events = [...(await res.text()).matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
      expect(events[0]).toBe('message_start');
      expect(events).toContain('ping');
      expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
      expect(events.filter((e) => e === 'content_block_start')).toHaveLength(2);

      const denied = await post(`${server.url}/v1/messages`, { model: 'c', max_tokens: 10, messages: [] }, { 'x-api-key': 'wrong' });
      expect(denied.status).toBe(401);
      expect(((await denied.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    } finally {
      await server.close();
    }
  });

  it('[providers] a hung request is released when the server closes', async () => {
    const server = await startOpenAILoopback({ defaultReply: { kind: 'hang' } });
    const pending = post(`${server.url}/chat/completions`, { model: 'm', messages: [] }).then(
      () => 'answered',
      () => 'dropped',
    );
    await server.waitForRequests(1);
    await server.close();
    expect(await pending).toBe('dropped');
  });
});
