import { describe, expect, it } from 'vitest';
import { addCosts, costUsd, listPriceOf, priceRun, type BilledTokens } from '../../../../engine/pricing/costUsd';

const M = 1_000_000;
const rates = (model: string) => listPriceOf(model)!.perMTok;
const tokens = (over: Partial<BilledTokens>): BilledTokens => ({ input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0, ...over });

describe('[cost-usd] money at list prices, split by what was billed', () => {
  it.each([
    // Claude Opus 4.6: $5 input, $0.50 read, $6.25 / $10 writes (5 minutes / 1 hour), $25 output.
    ['claude-opus-4-6', tokens({ input: M, cacheRead: M, cacheWrite: M, cacheWrite1h: 0.4 * M, output: M }), { input: 5, cacheRead: 0.5, cacheWrite: 0.6 * 6.25 + 0.4 * 10, output: 25 }],
    ['claude-opus-4-6', tokens({ cacheWrite: 2 * M }), { input: 0, cacheRead: 0, cacheWrite: 12.5, output: 0 }],
    ['claude-opus-4-6', tokens({ cacheWrite: 2 * M, cacheWrite1h: 2 * M }), { input: 0, cacheRead: 0, cacheWrite: 20, output: 0 }],
    // More 1-hour tokens than writes cannot be billed: clamped to the writes.
    ['claude-opus-4-6', tokens({ cacheWrite: M, cacheWrite1h: 3 * M }), { input: 0, cacheRead: 0, cacheWrite: 10, output: 0 }],
    // Opus 5.5 reads at 0.05x: $0.20.
    ['claude-opus-5-5', tokens({ input: M, cacheRead: 10 * M }), { input: 4, cacheRead: 2, cacheWrite: 0, output: 0 }],
    // OpenAI: no write charge, so written tokens cost ordinary input whatever their lifetime.
    ['gpt-5.4', tokens({ input: M, cacheRead: 2 * M, cacheWrite: M, cacheWrite1h: M, output: 0.1 * M }), { input: 2.5, cacheRead: 0.5, cacheWrite: 2.5, output: 1.5 }],
    // DeepSeek: cache hits at $0.07, misses at $0.27.
    ['deepseek-chat', tokens({ input: 2 * M, cacheRead: M, output: M }), { input: 0.54, cacheRead: 0.07, cacheWrite: 0, output: 1.1 }],
    ['gemini-2.5-pro', tokens({ input: M, cacheRead: 4 * M }), { input: 1.25, cacheRead: 0.5, cacheWrite: 0, output: 0 }],
    ['claude-sonnet-4-6', tokens({}), { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 }],
  ])('[cost-usd] %s: %j', (model, billed, expected) => {
    const c = costUsd(billed, rates(model));
    for (const k of ['input', 'cacheRead', 'cacheWrite', 'output'] as const) expect(c[k], k).toBeCloseTo(expected[k], 9);
    expect(c.prompt).toBeCloseTo(expected.input + expected.cacheRead + expected.cacheWrite, 9);
    expect(c.total).toBeCloseTo(c.prompt + expected.output, 9);
  });

  it('[cost-usd] a run is the sum of its calls; a model without a list price has no dollars and says so', () => {
    const calls = [
      { ...tokens({ input: 1000, cacheWrite: 9000, cacheWrite1h: 9000, output: 100 }), promptTokens: 10_000 },
      { ...tokens({ input: 500, cacheRead: 9000, cacheWrite: 500, output: 200 }), promptTokens: 10_000 },
    ];
    const run = priceRun('claude-opus-4-6', calls);
    expect(run.usd).toEqual(addCosts(calls.map((c) => costUsd(c, rates('claude-opus-4-6')))));
    expect(run.usd!.total).toBeCloseTo((1500 * 5 + 9000 * 0.5 + 9000 * 10 + 500 * 6.25 + 300 * 25) / M, 12);
    expect(run.note).toMatch(/^claude-opus-4-6 .*read 2026-12-01\)$/);
    expect(run.callsOverStandardRate).toBe(0);
    expect(priceRun('claude-made-up-1', calls)).toEqual({ model: 'claude-made-up-1', usd: null, note: 'no list price for claude-made-up-1', callsOverStandardRate: 0 });
  });

  it('[cost-usd] calls over a row’s standard-rate prompt size are counted, so a figure that is too low says so', () => {
    const call = (promptTokens: number) => ({ ...tokens({ input: promptTokens }), promptTokens });
    expect(priceRun('gemini-2.5-pro', [call(150_000), call(200_000), call(200_001), call(350_000)]).callsOverStandardRate).toBe(2);
    expect(priceRun('claude-opus-4-6', [call(900_000)]).callsOverStandardRate).toBe(0);
  });
});
