import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startAnthropicLoopback, startOpenAILoopback } from '../../support/loopback';
import { recordingHandler, startTestGateway } from './gatewayFixture';

const KEY = 'sk-test-gateway-sdk-key-0123456789';

describe('gateway with the providers\' SDKs', () => {
  it('[gateway-passthrough] [gateway-stream] the Anthropic SDK, pointed at the gateway, streams and calls as it would against the provider; the upstream gets the SDK\'s bytes', async () => {
    const upstream = await startAnthropicLoopback({ expectedKey: KEY });
    onTestFinished(() => upstream.close());
    upstream.enqueue({ kind: 'toolCalls', calls: [{ name: 'read', arguments: { path: 'a.ts' } }] }, { kind: 'text', text: 'all done through the gateway' });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { anthropic: upstream.url } });
    const client = new Anthropic({ apiKey: KEY, baseURL: gateway.origin, maxRetries: 0 });

    const first = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'read a.ts' }] });
    expect(first.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'read', input: { path: 'a.ts' } });
    const text: string[] = [];
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'now finish' }] });
    stream.on('text', (t) => text.push(t));
    const final = await stream.finalMessage();
    expect(text.join('')).toBe('all done through the gateway');
    expect(final.usage.output_tokens).toBeGreaterThan(0);

    expect(upstream.requests).toHaveLength(2);
    // SDK 1.x sends its API key as a bearer token.
    expect(upstream.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    expect(JSON.stringify(handler.seen.map((s) => s.headers))).not.toContain(KEY);
    expect(upstream.requests.map((r) => r.rawBody)).toEqual(handler.seen.map((s) => Buffer.from(s.body).toString()));
    for (const [i, sink] of handler.sinks.entries()) {
      await sink.ended;
      expect(sink.events.filter((e) => e.kind === 'end'), `call ${i}`).toEqual([{ kind: 'end' }]);
    }
    expect(handler.sinks[1]!.text()).toContain('event: message_stop');
  });

  it('[gateway-passthrough] [gateway-routes] the OpenAI SDK with base URL <gateway>/v1 streams chat completions through it; errors come back as the SDK\'s own', async () => {
    const upstream = await startOpenAILoopback({ expectedKey: KEY });
    onTestFinished(() => upstream.close());
    upstream.enqueue({ kind: 'text', text: 'hello from upstream' }, { kind: 'rateLimit', retryAfterSeconds: 3 });
    const handler = recordingHandler();
    const gateway = await startTestGateway({ handler, upstreams: { openai: upstream.url } });
    const client = new OpenAI({ apiKey: KEY, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });

    const stream = await client.chat.completions.create({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('hello from upstream');
    const refused = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'again' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('3');

    expect(upstream.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(upstream.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    expect(upstream.requests.map((r) => r.rawBody)).toEqual(handler.seen.map((s) => Buffer.from(s.body).toString()));
    expect(JSON.stringify(handler.seen.map((s) => s.headers))).not.toContain(KEY);
  });
});
