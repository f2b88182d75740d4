import { describe, expect, it } from 'vitest';
import {
  describeFailure,
  isAnthropicContextLimit,
  isOpenAIContextLimit,
  kindForStatus,
  kindForType,
  parseAnthropicContextLimit,
  parseOpenAIContextLimit,
  parseRetryAfter,
  providerErrorFromApi,
  redact,
} from '../../../../engine/providers/errors';

const headers = (h: Record<string, string>) => new Headers(h);

describe('[providers] error mapping helpers', () => {
  it('[providers] reads the token numbers of both providers’ context-limit messages', () => {
    expect(parseOpenAIContextLimit("This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.")).toEqual({
      promptTokens: 130512,
      limit: 128000,
    });
    expect(parseOpenAIContextLimit("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8500 in the messages, 500 in the completion).")).toEqual({ promptTokens: 8500, limit: 8192 });
    expect(parseOpenAIContextLimit('Your input exceeds the context window of this model.')).toEqual({});
    expect(parseAnthropicContextLimit('prompt is too long: 208310 tokens > 200000 maximum')).toEqual({ promptTokens: 208310, limit: 200000 });
    expect(parseAnthropicContextLimit('input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again')).toEqual({
      promptTokens: 188240,
      limit: 200000,
    });
  });

  it('[providers] recognises context-limit failures by code or message, not other 400s', () => {
    expect(isOpenAIContextLimit({ status: 400, code: 'context_length_exceeded', serverMessage: 'Your input exceeds the context window of this model.' })).toBe(true);
    expect(isOpenAIContextLimit({ status: 400, code: null, serverMessage: "This model's maximum context length is 4096 tokens." })).toBe(true);
    expect(isOpenAIContextLimit({ status: 400, code: 'invalid_value', serverMessage: 'bad temperature' })).toBe(false);
    expect(isAnthropicContextLimit({ status: 400, type: 'invalid_request_error', serverMessage: 'prompt is too long: 5 tokens > 4 maximum' })).toBe(true);
    expect(isAnthropicContextLimit({ status: 400, type: 'invalid_request_error', serverMessage: 'messages: roles must alternate' })).toBe(false);
    expect(isAnthropicContextLimit({ status: 500, type: 'api_error', serverMessage: 'prompt is too long' })).toBe(false);
  });

  it('[providers] kinds by status and by in-stream error type', () => {
    expect([401, 403, 408, 409, 429, 500, 503, 529, 400, 404, 422].map(kindForStatus)).toEqual(['auth', 'auth', 'timeout', 'server', 'rate_limited', 'server', 'server', 'server', 'bad_request', 'bad_request', 'bad_request']);
    expect(['overloaded_error', 'api_error', 'rate_limit_error', 'invalid_request_error', 'authentication_error', 'server_error', undefined].map(kindForType)).toEqual([
      'server',
      'server',
      'rate_limited',
      'bad_request',
      'auth',
      'server',
      'server',
    ]);
  });

  it('[providers] parses retry-after-ms, retry-after seconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('[providers] redacts the key from messages and never repeats an auth failure’s server text', () => {
    expect(redact('bad key sk-123 given, sk-123 again', 'sk-123')).toBe('bad key [redacted] given, [redacted] again');
    expect(redact('x'.repeat(1000), undefined).length).toBeLessThan(500);
    expect(describeFailure('openai', 'auth', 'Incorrect API key provided: sk-123', 401)).toBe('openai: authentication failed (HTTP 401): check the openai API key setting');
    const { error, retryAfterMs } = providerErrorFromApi('anthropic', { status: 429, type: 'rate_limit_error', serverMessage: 'slow down sk-123', retryAfterMs: 1000 }, 'sk-123');
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'rate_limited', status: 429, provider: 'anthropic' });
    expect(error.message).toBe('anthropic: rate limited (HTTP 429): slow down [redacted]');
    expect(retryAfterMs).toBe(1000);
  });
});
