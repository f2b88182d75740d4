import { describe, expect, it } from 'vitest';
import { SseUsageReader } from '../../../../engine/gateway/SseUsageReader';
import { costOfUsage, providerReasonOf, upstreamErrorOf, usageOfJson } from '../../../../engine/gateway/usageOf';
import { costUsd, listPriceOf } from '../../../../engine/pricing/costUsd';
import { Utf8StreamDecoder } from '../../../../engine/text/Utf8StreamDecoder';
import { encode } from './gatewayFixtures';

const sse = (events: [string | undefined, unknown][]): string => events.map(([name, data]) => `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');

const ANTHROPIC_USAGE = { input_tokens: 12, cache_creation_input_tokens: 300, cache_read_input_tokens: 9000, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } };

/** An Anthropic stream like Claude Code receives: text with multi-byte characters, the final usage in message_delta. */
const ANTHROPIC_STREAM = sse([
  ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [], usage: { ...ANTHROPIC_USAGE, output_tokens: 1 } } }],
  ['ping', { type: 'ping' }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Grüße — 日本語 🎉 done' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 42 } }],
  ['message_stop', { type: 'message_stop' }],
]);

const EXPECTED_ANTHROPIC = { input: 12, cacheRead: 9000, cacheWrite: 300, cacheWrite1h: 200, output: 42 };

function read(api: 'anthropic-messages' | 'openai-responses' | 'openai-chat', chunks: Uint8Array[]): SseUsageReader {
  const r = new SseUsageReader(api);
  for (const c of chunks) r.push(c);
  r.end();
  return r;
}

describe('[gateway-usage] billed usage from a whole response, parts disjoint', () => {
  it.each([
    ['anthropic-messages', { id: 'msg', usage: { ...ANTHROPIC_USAGE, output_tokens: 42 } }, EXPECTED_ANTHROPIC],
    ['openai-responses', { id: 'resp', usage: { input_tokens: 10_000, input_tokens_details: { cached_tokens: 8_192 }, output_tokens: 50 } }, { input: 1_808, cacheRead: 8_192, cacheWrite: 0, cacheWrite1h: 0, output: 50 }],
    ['openai-chat', { id: 'chat', usage: { prompt_tokens: 2_000, prompt_tokens_details: { cached_tokens: 1_024 }, completion_tokens: 7 } }, { input: 976, cacheRead: 1_024, cacheWrite: 0, cacheWrite1h: 0, output: 7 }],
    ['openai-chat', { id: 'chat', usage: { prompt_tokens: 20, completion_tokens: 3 } }, { input: 20, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 3 }],
    ['anthropic-messages', { id: 'msg' }, undefined],
    ['anthropic-count-tokens', { input_tokens: 1234 }, undefined],
  ] as const)('%s %j', (api, json, expected) => {
    expect(usageOfJson(api, json)).toEqual(expected);
  });

  it('money from the one price table, undefined for a model without a list price', () => {
    const price = listPriceOf('claude-opus-5-5');
    expect(price).toBeDefined();
    expect(costOfUsage('claude-opus-5-5', EXPECTED_ANTHROPIC)).toBe(costUsd(EXPECTED_ANTHROPIC, price!.perMTok).total);
    expect(costOfUsage('claude-opus-5-5', EXPECTED_ANTHROPIC)).toBeGreaterThan(0);
    expect(costOfUsage('no-such-model-9', EXPECTED_ANTHROPIC)).toBeUndefined();
  });

  it("the provider's error and its cache-miss reason, when the body gives them", () => {
    expect(upstreamErrorOf({ type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } })).toBe('rate_limit_error: Number of request tokens has exceeded your per-minute rate limit');
    expect(upstreamErrorOf({ error: { message: 'Invalid value for input', type: 'invalid_request_error', code: null } })).toBe('invalid_request_error: Invalid value for input');
    expect(upstreamErrorOf({ id: 'msg' })).toBeUndefined();
    expect(providerReasonOf({ diagnostics: { cache_miss_reason: { type: 'tools_changed', cache_missed_input_tokens: 5000 } } })).toBe('tools_changed (5000 input tokens missed)');
    expect(providerReasonOf({ diagnostics: { cache_miss_reason: null } })).toBeUndefined();
    expect(providerReasonOf({ prompt_cache_diagnostics: { reason: 'tools_changed' } })).toBe('tools_changed');
  });
});

describe('[gateway-sse-usage] usage read from an event stream as it passes, in pieces of any size', () => {
  it('an Anthropic stream split at every byte boundary, and byte by byte, gives the same usage', () => {
    const bytes = encode(ANTHROPIC_STREAM);
    expect(read('anthropic-messages', [bytes]).usage).toEqual(EXPECTED_ANTHROPIC);
    for (let cut = 1; cut < bytes.length; cut++) {
      const r = read('anthropic-messages', [bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(r.usage, `cut at byte ${cut}`).toEqual(EXPECTED_ANTHROPIC);
      expect(r.skipped, `cut at byte ${cut}`).toBe(0);
    }
    const single = read('anthropic-messages', Array.from(bytes, (b) => Uint8Array.of(b)));
    expect(single.usage).toEqual(EXPECTED_ANTHROPIC);
    expect(single.events).toBe(7);
  });

  it('CRLF line ends, a \\r\\n cut between two pieces, comments, an event known only by its name, and a last event without its blank line', () => {
    const text = `: keep-alive\r\nevent: message_start\r\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: { ...ANTHROPIC_USAGE, output_tokens: 1 } } })}\r\n\r\nevent: message_delta\r\ndata: ${JSON.stringify({ usage: { output_tokens: 42 } })}`;
    const bytes = encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(read('anthropic-messages', [bytes.subarray(0, cut), bytes.subarray(cut)]).usage, `cut at byte ${cut}`).toEqual(EXPECTED_ANTHROPIC);
    }
  });

  it('OpenAI Responses: response.completed usage with the cached part taken out of input', () => {
    const stream = sse([
      ['response.created', { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', usage: null } }],
      ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 1, delta: 'héllo' }],
      ['response.completed', { type: 'response.completed', sequence_number: 2, response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 5_000, input_tokens_details: { cached_tokens: 4_096 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 5 } } } }],
    ]);
    const bytes = encode(stream);
    const r = read('openai-responses', [bytes.subarray(0, 100), bytes.subarray(100, 101), bytes.subarray(101)]);
    expect(r.usage).toEqual({ input: 904, cacheRead: 4_096, cacheWrite: 0, cacheWrite1h: 0, output: 20 });
    expect(r.error).toBeUndefined();
  });

  it('Chat Completions: the usage of the final chunk, present only with include_usage; [DONE] is no event to read', () => {
    const chunk = (delta: unknown, usage: unknown = null) => ({ id: 'c1', object: 'chat.completion.chunk', choices: delta ? [{ index: 0, delta }] : [], usage });
    const withUsage = sse([[undefined, chunk({ content: 'Hi' })], [undefined, chunk(null, { prompt_tokens: 1_500, prompt_tokens_details: { cached_tokens: 1_280 }, completion_tokens: 2 })], [undefined, '[DONE]']]);
    expect(read('openai-chat', [encode(withUsage)])).toMatchObject({ usage: { input: 220, cacheRead: 1_280, cacheWrite: 0, cacheWrite1h: 0, output: 2 }, skipped: 0 });
    const without = sse([[undefined, chunk({ content: 'Hi' })], [undefined, '[DONE]']]);
    expect(read('openai-chat', [encode(without)]).usage).toBeUndefined();
  });

  it("an error event names the provider's error (Anthropic overloaded mid-stream, a Responses error, response.failed)", () => {
    const anthropic = sse([['message_start', { type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } }], ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]]);
    expect(read('anthropic-messages', [encode(anthropic)])).toMatchObject({ error: 'overloaded_error: Overloaded', usage: { input: 5, output: 1 } });
    const responses = sse([['error', { type: 'error', code: 'server_error', message: 'The server had an error' }]]);
    expect(read('openai-responses', [encode(responses)]).error).toBe('server_error: The server had an error');
    const failed = sse([['response.failed', { type: 'response.failed', response: { id: 'r', status: 'failed', error: { code: 'rate_limit_exceeded', message: 'Slow down' }, usage: null } }]]);
    expect(read('openai-responses', [encode(failed)]).error).toBe('rate_limit_exceeded: Slow down');
  });

  it('holds only the event being read: an event over the limit is skipped and counted, later ones are read', () => {
    const big = sse([['content_block_delta', { type: 'content_block_delta', delta: { text: 'x'.repeat(5_000) } }], ['message_delta', { type: 'message_delta', usage: { input_tokens: 3, output_tokens: 4 } }]]);
    const r = new SseUsageReader('anthropic-messages', 1_000);
    r.push(encode(big));
    r.end();
    expect(r).toMatchObject({ skipped: 1, events: 2, usage: { input: 3, output: 4 } });
  });
});

describe('[gateway-sse-usage] Utf8StreamDecoder decodes as TextDecoder does, across pieces', () => {
  it('every split of valid and invalid UTF-8 gives what the platform decoder gives', () => {
    const samples = [encode('a€𝄞ü—日本'), Uint8Array.of(0xef, 0xbb, 0xbf, 0x41, 0xc3), Uint8Array.of(0x41, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98, 0xed, 0xa0, 0x80, 0xff, 0xc0, 0xaf, 0xf4, 0x90, 0x80, 0x80)];
    for (const bytes of samples) {
      for (let cut = 0; cut <= bytes.length; cut++) {
        const ours = new Utf8StreamDecoder();
        const platform = new TextDecoder('utf-8');
        const got = ours.decode(bytes.subarray(0, cut), { stream: true }) + ours.decode(bytes.subarray(cut));
        const want = platform.decode(bytes.subarray(0, cut), { stream: true }) + platform.decode(bytes.subarray(cut));
        expect(got, `${Array.from(bytes).join(',')} cut at ${cut}`).toBe(want);
      }
    }
    // Runs of ASCII longer than one copy step, around a sequence and a cut inside it.
    const long = encode(`${'x'.repeat(9_000)}é${'y'.repeat(20_000)}🎉`);
    const d = new Utf8StreamDecoder();
    expect(d.decode(long.subarray(0, 9_001), { stream: true }) + d.decode(long.subarray(9_001))).toBe(new TextDecoder().decode(long));
  });
});
