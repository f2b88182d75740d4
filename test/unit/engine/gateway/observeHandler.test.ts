import { describe, expect, it } from 'vitest';
import type { GatewayCallUpdate } from '../../../../engine/gateway/CallExchange';
import { createObserveHandler, type UnobservedRequest } from '../../../../engine/gateway/observeHandler';
import type { GatewayDecision, GatewayRequestIn } from '../../../../engine/gateway/types';
import { sequentialIds } from '../../../../engine/ports/IdSource';
import { claudeBody, claudeHeaders, encode, toolResult, toolUse, userText } from './gatewayFixtures';

const request = (body: string, path = '/v1/messages?beta=true', receivedAt = 1_000): GatewayRequestIn => ({ method: 'POST', path, headers: claudeHeaders(), body: encode(body), receivedAt });

function setup() {
  const updates: GatewayCallUpdate[] = [];
  const unobserved: UnobservedRequest[] = [];
  const handler = createObserveHandler({ ids: sequentialIds(), onCall: (u) => updates.push({ ...u, call: structuredClone(u.call) }), onUnobserved: (r) => unobserved.push(r) });
  return { handler, updates, unobserved };
}

const forward = (d: GatewayDecision) => {
  if (d.kind !== 'forward') throw new Error('expected forward');
  return d;
};

const STREAM = [
  `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 4, cache_read_input_tokens: 1_000, cache_creation_input_tokens: 200, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 200 }, output_tokens: 1 } } })}\n\n`,
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } })}\n\n`,
  `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } })}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`,
];

describe('[gateway-observe] observe mode: the original bytes go upstream, the call is read after and shown live', () => {
  it('handle decides without parsing; afterForward records the call; the sink fills usage, money, times and status', () => {
    const { handler, updates } = setup();
    const body = JSON.stringify(claudeBody([userText('Fix the bug'), toolUse('toolu_1', 'Read', { file_path: '/w/a.ts' }), toolResult('toolu_1', 'const a = 1;')]));
    const d = forward(handler.handle(request(body)));
    expect(d.body).toBe('original');
    expect(updates).toEqual([]);
    expect(handler.counts()).toMatchObject({ received: 1, forwarded: 1, pending: 1, observed: 0 });
    d.afterForward!();
    expect(updates.map((u) => u.event)).toEqual(['started']);
    expect(updates[0]!.call).toMatchObject({ id: 'gwc-1', sessionId: 'gws-1', threadId: 'gwt-1', api: 'anthropic-messages', model: 'claude-opus-5-5', mode: 'observe', startedAt: 1_000, prefixReuse: 0, cacheBreak: { at: 'first call' } });
    const sink = d.sink!;
    sink.upstreamStart(200, { 'content-type': 'text/event-stream; charset=utf-8' }, 1_250);
    for (const [i, chunk] of STREAM.entries()) sink.upstreamChunk(encode(chunk), 1_300 + i);
    expect(updates.map((u) => u.event)).toEqual(['started', 'usage']);
    expect(updates[1]!.call.usage).toEqual({ input: 4, cacheRead: 1_000, cacheWrite: 200, cacheWrite1h: 200, output: 1 });
    sink.upstreamEnd({ at: 1_900 });
    expect(updates.map((u) => u.event)).toEqual(['started', 'usage', 'ended']);
    const ended = updates[2]!.call;
    expect(ended).toMatchObject({ status: 200, firstByteMs: 250, durationMs: 900, usage: { input: 4, cacheRead: 1_000, cacheWrite: 200, cacheWrite1h: 200, output: 9 } });
    expect(ended.costUsd).toBeGreaterThan(0);
    expect(ended.error).toBeUndefined();
    expect(handler.counts()).toEqual({ received: 1, forwarded: 1, observed: 1, unparsed: 0, failed: 0, passedThrough: 0, pending: 0 });
  });

  it('what the upstream said before the call was read is applied when it is (the server may read it late)', () => {
    const { handler, updates } = setup();
    const d = forward(handler.handle(request(JSON.stringify(claudeBody([userText('hi')], { stream: false })))));
    d.sink!.upstreamStart(429, { 'content-type': 'application/json' }, 1_100);
    d.sink!.upstreamChunk(encode('{"type":"error","error":{"type":"rate_limit_error",'), 1_101);
    d.sink!.upstreamChunk(encode('"message":"Slow down"}}'), 1_102);
    d.sink!.upstreamEnd({ at: 1_103 });
    d.afterForward!();
    expect(updates.map((u) => u.event)).toEqual(['started', 'ended']);
    expect(updates[1]!.call).toMatchObject({ status: 429, error: 'rate_limit_error: Slow down', firstByteMs: 100, durationMs: 103 });
    expect(updates[1]!.call.usage).toBeUndefined();
  });

  it('a JSON reply gives usage and the cache-miss reason; a cut stream keeps the usage read so far and says what happened', () => {
    const { handler, updates } = setup();
    const body = JSON.stringify(claudeBody([userText('hi')], { stream: false }));
    const d = forward(handler.handle(request(body)));
    d.afterForward!();
    d.sink!.upstreamStart(200, { 'content-type': 'application/json' }, 1_010);
    d.sink!.upstreamChunk(encode(JSON.stringify({ id: 'msg', usage: { input_tokens: 30, output_tokens: 5 }, diagnostics: { cache_miss_reason: { type: 'system_changed', cache_missed_input_tokens: 900 } } })), 1_020);
    d.sink!.upstreamEnd({ at: 1_030 });
    expect(updates.at(-1)!.call).toMatchObject({ usage: { input: 30, output: 5 }, cacheBreak: { at: 'first call', providerReason: 'system_changed (900 input tokens missed)' } });
    const cut = forward(handler.handle(request(body, '/v1/messages', 2_000)));
    cut.afterForward!();
    cut.sink!.upstreamStart(200, { 'content-type': 'text/event-stream' }, 2_010);
    cut.sink!.upstreamChunk(encode(STREAM[0]!), 2_020);
    cut.sink!.upstreamEnd({ at: 2_030, error: 'cut stream' });
    expect(updates.at(-1)!.call).toMatchObject({ error: 'cut stream', usage: { input: 4, cacheRead: 1_000, output: 1 }, cacheBreak: { at: 'unchanged' } });
  });
});

describe('[gateway-observe-unparsed] a body the gateway cannot read still goes upstream unchanged, and is recorded with why', () => {
  it('unparsable, wrong shape, and no model call at all: forwarded, counted, each with its reason', () => {
    const { handler, updates, unobserved } = setup();
    const bad = forward(handler.handle(request('{"model": "claude-opus-5-5", "messages": [')));
    expect(bad.body).toBe('original');
    // handle did not read the body: nothing is known about it until afterForward runs.
    expect(unobserved).toEqual([]);
    bad.afterForward!();
    const shape = forward(handler.handle(request('{"model":"claude-opus-5-5","messages":"hi"}')));
    shape.afterForward!();
    const other = forward(handler.handle({ method: 'GET', path: '/v1/models', headers: {}, body: new Uint8Array(0), receivedAt: 5 }));
    expect(other.sink).toBeUndefined();
    expect(other.afterForward).toBeUndefined();
    expect(updates).toEqual([]);
    expect(unobserved.map((u) => [u.kind, u.api, u.path, u.bytes > 0, u.reason])).toEqual([
      ['unparsed', 'anthropic-messages', '/v1/messages?beta=true', true, expect.stringMatching(/not valid JSON/)],
      ['unparsed', 'anthropic-messages', '/v1/messages?beta=true', true, 'messages: an array is required'],
    ]);
    expect(handler.counts()).toEqual({ received: 3, forwarded: 3, observed: 0, unparsed: 2, failed: 0, passedThrough: 1, pending: 0 });
  });

  it('a fault of the gateway itself is recorded as a failure; afterForward twice reads once', () => {
    const { handler, unobserved } = setup();
    const d = forward(handler.handle(request(JSON.stringify(claudeBody([userText('hi')])))));
    d.afterForward!();
    d.afterForward!();
    handler.failed(request('{}'), new Error('out of ids'));
    expect(unobserved).toEqual([{ kind: 'failed', at: 1_000, method: 'POST', path: '/v1/messages?beta=true', api: 'anthropic-messages', bytes: 2, reason: 'the gateway failed on it: out of ids' }]);
    expect(handler.counts()).toMatchObject({ received: 1, forwarded: 1, observed: 1, failed: 1, pending: 0 });
  });
});
