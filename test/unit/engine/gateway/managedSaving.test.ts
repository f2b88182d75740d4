import { describe, expect, it } from 'vitest';
import { managedSaving, type SavingInput } from '../../../../engine/gateway/managedSaving';
import type { CacheBreak, GatewayUsage } from '../../../../engine/gateway/types';

// Hand-computed cases. Claude Sonnet 4.5 list prices per million tokens: input $3, cache read $0.30,
// 5-minute write $3.75, 1-hour write $6. GPT-5.5: input $5, cached input $0.50, no write charge.

const SONNET = 'claude-sonnet-4-5';
const usage = (u: Partial<GatewayUsage>): GatewayUsage => ({ input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 100, ...u });
const brk = (at: string, unchangedBytes: number): CacheBreak => ({ at, blockIndex: at === 'first call' ? -1 : 3, unchangedBytes });
const input = (o: Partial<SavingInput> & Pick<SavingInput, 'usage' | 'originalTokens' | 'rewrittenTokens' | 'sentCacheBreak' | 'original'>): SavingInput => ({ model: SONNET, ...o });

describe('managedSaving', () => {
  it('[gateway-host-savings] a call inside a generation: the original would have read from cache what the generation hid, on top of the same new tokens', () => {
    // Billed 3,150 read + 450 written = $0.0026325 (3,600 of 4,000 estimated: scale 0.9, under 1,
    // so the 6,000 hidden tokens count as o200k counted them). Counterfactual prompt 9,600: the
    // same 450 new tokens written, 9,150 read = $0.0044325; the saving is 6,000 reads, $0.0018.
    const s = managedSaving(input({ usage: usage({ cacheRead: 3_150, cacheWrite: 450 }), originalTokens: 10_000, rewrittenTokens: 4_000, sentCacheBreak: 'appended', original: { cacheBreak: brk('appended', 9_000), bytes: 10_000, previousTokens: 9_000 } }));
    expect(s.counterfactual).toEqual({ input: 0, cacheRead: 9_150, cacheWrite: 450, cacheWrite1h: 0, output: 100 });
    expect(s.tokens).toBe(6_000);
    expect(s.usd).toBeCloseTo(0.0018, 12);
  });

  it('[gateway-host-savings] a boundary that only appended to what was sent before (nothing hidden) would have been billed as it was: no saving', () => {
    // The o200k growth over the previous original (5,653) would say otherwise; the billed write of 4,948 is the same new entries.
    const s = managedSaving(input({ usage: usage({ cacheRead: 10_900, cacheWrite: 4_948 }), originalTokens: 16_768, rewrittenTokens: 16_768, sentCacheBreak: 'appended', original: { cacheBreak: brk('appended', 40_000), bytes: 60_000, previousTokens: 11_115 } }));
    expect(s.counterfactual).toEqual({ input: 0, cacheRead: 10_900, cacheWrite: 4_948, cacheWrite1h: 0, output: 100 });
    expect(s).toMatchObject({ tokens: 0, usd: 0 });
  });

  it("[gateway-host-savings] a scale above 1 converts the hidden o200k tokens to the provider's units", () => {
    // Billed 4,800 of 4,000 estimated: scale 1.2, the 6,000 hidden tokens bill 7,200, read: $0.00216.
    const s = managedSaving(input({ usage: usage({ cacheRead: 4_000, cacheWrite: 800 }), originalTokens: 10_000, rewrittenTokens: 4_000, sentCacheBreak: 'appended', original: { cacheBreak: brk('appended', 9_000), bytes: 10_000, previousTokens: 9_000 } }));
    expect(s.counterfactual).toEqual({ input: 0, cacheRead: 11_200, cacheWrite: 800, cacheWrite1h: 0, output: 100 });
    expect(s.tokens).toBe(7_200);
    expect(s.usd).toBeCloseTo(0.00216, 12);
    // At a boundary the original's new tokens convert alike: 1,000 o200k bill 1,200, written;
    // 10,800 read + 1,200 written = $0.00774 against 1,000 read + 3,800 written = $0.01455.
    const b = managedSaving(input({ usage: usage({ cacheRead: 1_000, cacheWrite: 3_800 }), originalTokens: 10_000, rewrittenTokens: 4_000, sentCacheBreak: 'message 3', original: { cacheBreak: brk('appended', 9_000), bytes: 10_000, previousTokens: 9_000 } }));
    expect(b.counterfactual).toEqual({ input: 0, cacheRead: 10_800, cacheWrite: 1_200, cacheWrite1h: 0, output: 100 });
    expect(b.usd).toBeCloseTo(0.00774 - 0.01455, 12);
  });

  it('[gateway-host-savings] a generation boundary charges its cache write: the rewritten prompt is written again where the original would have been read, and the saving is negative', () => {
    // Billed: 8,000 read, 32,000 written (8,000 of them for an hour) = $0.1404. Counterfactual:
    // 95,000 read, the 5,000 new written in the same 3:1 split of 5-minute and 1-hour writes:
    // (95,000 × 0.3 + 3,750 × 3.75 + 1,250 × 6) / 1e6 = $0.0500625.
    const s = managedSaving(input({ usage: usage({ cacheRead: 8_000, cacheWrite: 32_000, cacheWrite1h: 8_000 }), originalTokens: 100_000, rewrittenTokens: 40_000, sentCacheBreak: 'message 3', original: { cacheBreak: brk('appended', 95_000), bytes: 100_000, previousTokens: 95_000 } }));
    expect(s.counterfactual).toEqual({ input: 0, cacheRead: 95_000, cacheWrite: 5_000, cacheWrite1h: 1_250, output: 100 });
    expect(s.tokens).toBe(60_000);
    expect(s.usd).toBeCloseTo(0.0500625 - 0.1404, 12);
    expect(s.usd).toBeLessThan(0);
  });

  it('[gateway-host-savings] OpenAI bills no cache write: at a boundary the original\'s new tokens are uncached input, as this call\'s were', () => {
    // Counterfactual 18,000 read + 2,000 input = $0.019; billed 7,000 read + 1,000 input = $0.0085.
    const s = managedSaving({ model: 'gpt-5.5', usage: usage({ input: 1_000, cacheRead: 7_000 }), originalTokens: 20_000, rewrittenTokens: 8_000, sentCacheBreak: 'message 3', original: { cacheBreak: brk('appended', 18_000), bytes: 20_000, previousTokens: 18_000 } });
    expect(s.counterfactual).toEqual({ input: 2_000, cacheRead: 18_000, cacheWrite: 0, cacheWrite1h: 0, output: 100 });
    expect(s.tokens).toBe(12_000);
    expect(s.usd).toBeCloseTo(0.0105, 12);
  });

  it('[gateway-host-savings] a model without a list price: the tokens are estimated, the money is 0', () => {
    const s = managedSaving({ model: 'mystery-model-1', usage: usage({ cacheRead: 3_150, cacheWrite: 450 }), originalTokens: 10_000, rewrittenTokens: 4_000, sentCacheBreak: 'appended', original: { cacheBreak: brk('appended', 9_000), bytes: 10_000, previousTokens: 9_000 } });
    expect(s.tokens).toBe(6_000);
    expect(s.usd).toBe(0);
  });

  it("[gateway-host-savings] a thread's first call reads what the call itself read; a changed model reads nothing", () => {
    // Prompt 2,700 + 2,000 hidden = 4,700: 1,500 read as billed, 3,200 written. $0.01245 vs $0.00495.
    const first = managedSaving(input({ usage: usage({ cacheRead: 1_500, cacheWrite: 1_200 }), originalTokens: 5_000, rewrittenTokens: 3_000, sentCacheBreak: 'first call', original: { cacheBreak: brk('first call', 0), bytes: 5_000 } }));
    expect(first.counterfactual).toEqual({ input: 0, cacheRead: 1_500, cacheWrite: 3_200, cacheWrite1h: 0, output: 100 });
    expect(first.usd).toBeCloseTo(0.0075, 12);
    // All 8,000 written ($0.03) against 4,000 written ($0.015).
    const model = managedSaving(input({ usage: usage({ cacheWrite: 4_000 }), originalTokens: 8_000, rewrittenTokens: 4_000, sentCacheBreak: 'model', original: { cacheBreak: brk('model', 0), bytes: 8_000 } }));
    expect(model.counterfactual.cacheRead).toBe(0);
    expect(model.usd).toBeCloseTo(0.015, 12);
  });

  it('[gateway-host-savings] a diverged original, or an appended one whose previous original was not counted, reads the unchanged bytes\' share of its prompt', () => {
    // 2,000 of 8,000 bytes unchanged: 2,000 of the 8,000 tokens read, 6,000 written = $0.0231 vs $0.015.
    const diverged = managedSaving(input({ usage: usage({ cacheWrite: 4_000 }), originalTokens: 8_000, rewrittenTokens: 4_000, sentCacheBreak: 'message 3', original: { cacheBreak: brk('message 3', 2_000), bytes: 8_000 } }));
    expect(diverged.counterfactual).toEqual({ input: 0, cacheRead: 2_000, cacheWrite: 6_000, cacheWrite1h: 0, output: 100 });
    expect(diverged.usd).toBeCloseTo(0.0081, 12);
    const uncounted = managedSaving(input({ usage: usage({ cacheWrite: 4_000 }), originalTokens: 8_000, rewrittenTokens: 4_000, sentCacheBreak: 'message 3', original: { cacheBreak: brk('appended', 6_000), bytes: 8_000 } }));
    expect(uncounted.counterfactual.cacheRead).toBe(6_000);
    expect(uncounted.counterfactual.cacheWrite).toBe(2_000);
  });

  it('[gateway-host-savings] a call that sent its previous request again and read all of it: what the original adds is priced as uncached input', () => {
    // 4,500 read + 500 input = $0.00285 against 4,000 read = $0.0012.
    const s = managedSaving(input({ usage: usage({ cacheRead: 4_000 }), originalTokens: 5_000, rewrittenTokens: 4_000, sentCacheBreak: 'unchanged', original: { cacheBreak: brk('appended', 4_500), bytes: 5_000, previousTokens: 4_500 } }));
    expect(s.counterfactual).toEqual({ input: 500, cacheRead: 4_500, cacheWrite: 0, cacheWrite1h: 0, output: 100 });
    expect(s.usd).toBeCloseTo(0.00165, 12);
  });
});
