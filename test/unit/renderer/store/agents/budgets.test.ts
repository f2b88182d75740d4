import { describe, expect, it } from 'vitest';
import { budgetLabel, limitNote, providerLimitOf } from '../../../../../renderer/store/agents/budgets';

describe('budgets', () => {
  it.each([
    ['prompt is too long: 203928 tokens > 200000 maximum', { prompt: 203_928, window: 200_000 }],
    ['provider context-limit error: prompt is too long: 205,155 tokens > 200,000 maximum', { prompt: 205_155, window: 200_000 }],
    ["This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", { prompt: 130_512, window: 128_000 }],
    ['rate limited, retry in 2 s', null],
  ])('reads the provider window out of %j', (text, expected) => {
    expect(providerLimitOf(text)).toEqual(expected);
  });

  it('names the provider window and the engine budget apart in one note', () => {
    expect(limitNote('prompt is too long: 203928 tokens > 200000 maximum', 64_000)).toBe('204k tokens > provider window 200k; engine budget 64k (the context % in the tree) is a different figure');
    expect(limitNote('prompt is too long: 203928 tokens > 200000 maximum', undefined)).toBe('204k tokens > provider window 200k');
    expect(limitNote('no limit here', 64_000)).toBeNull();
  });

  it('has one name per kind of budget', () => {
    expect(new Set(['engine', 'provider', 'session'].map((k) => budgetLabel(k as 'engine')))).toEqual(new Set(['engine budget', 'provider window', "session's real window"]));
  });
});
