import { describe, expect, it } from 'vitest';
import { listPriceOf, priceNote } from '../../../../engine/pricing/costUsd';
import { LIST_PRICES, PRICES_READ } from '../../../../engine/pricing/listPrices';

describe('[price-table] the per-model list-price table', () => {
  it('[price-table] every row cites an https source and the day it was read, and has non-negative rates', () => {
    expect(PRICES_READ).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const row of LIST_PRICES) {
      expect(row.source, row.models).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\//);
      expect(row.read, row.models).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const rate of Object.values(row.perMTok)) expect(rate, row.models).toBeGreaterThanOrEqual(0);
      expect(row.pattern.global || row.pattern.sticky, row.models).toBe(false);
    }
  });

  it('[price-table] Anthropic rows follow the documented multipliers: 5-minute writes 1.25x, 1-hour writes 2x, reads 0.1x the base input price (Opus 5.5: 0.05x, said in its note)', () => {
    const anthropic = LIST_PRICES.filter((r) => r.provider === 'anthropic');
    expect(anthropic.length).toBeGreaterThanOrEqual(8);
    for (const { models, perMTok: r, note } of anthropic) {
      expect(r.cacheWrite5m, models).toBeCloseTo(r.input * 1.25, 9);
      expect(r.cacheWrite1h, models).toBeCloseTo(r.input * 2, 9);
      const readMultiplier = models === 'Claude Opus 5.5' ? 0.05 : 0.1;
      expect(r.cacheRead, models).toBeCloseTo(r.input * readMultiplier, 9);
      if (readMultiplier !== 0.1) expect(note).toMatch(/0\.05x/);
    }
  });

  it('[price-table] OpenAI, DeepSeek and Gemini charge nothing for writing the cache: a written token costs ordinary input', () => {
    for (const { provider, models, perMTok: r } of LIST_PRICES.filter((p) => p.provider !== 'anthropic')) {
      expect([provider, r.cacheWrite5m, r.cacheWrite1h], models).toEqual([provider, r.input, r.input]);
      expect(r.cacheRead, models).toBeLessThan(r.input);
    }
  });

  // Names as the recordings and current clients send them; the figures as the sources list them.
  it.each([
    ['claude-opus-4-6', 'Claude Opus 4.5, 4.6, 4.7, 4.8', 5, 0.5, 25],
    ['claude-opus-4.6', 'Claude Opus 4.5, 4.6, 4.7, 4.8', 5, 0.5, 25],
    ['claude-opus-4-5-20251101', 'Claude Opus 4.5, 4.6, 4.7, 4.8', 5, 0.5, 25],
    ['claude-opus-4-6[1m]', 'Claude Opus 4.5, 4.6, 4.7, 4.8', 5, 0.5, 25],
    ['claude-opus-4-1-20250805', 'Claude Opus 4, 4.1', 15, 1.5, 75],
    ['claude-opus-4-20250514', 'Claude Opus 4, 4.1', 15, 1.5, 75],
    ['claude-opus-5', 'Claude Opus 5', 5, 0.5, 25],
    ['claude-opus-5-5', 'Claude Opus 5.5', 4, 0.2, 20],
    ['claude-sonnet-4-6', 'Claude Sonnet 4.5, 4.6', 3, 0.3, 15],
    ['claude-sonnet-4-5', 'Claude Sonnet 4.5, 4.6', 3, 0.3, 15],
    ['claude-sonnet-4-20250514', 'Claude Sonnet 4', 3, 0.3, 15],
    ['claude-sonnet-5', 'Claude Sonnet 5', 2, 0.2, 10],
    ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5', 1, 0.1, 5],
    ['claude-3-5-haiku-20241022', 'Claude Haiku 3.5', 0.8, 0.08, 4],
    ['gpt-5.5', 'GPT-5.5', 5, 0.5, 30],
    ['gpt-5.4', 'GPT-5.4', 2.5, 0.25, 15],
    ['gpt-5.4-mini', 'GPT-5.4 mini', 0.75, 0.075, 4.5],
    ['gpt-5.3-codex', 'GPT-5.2, GPT-5.2-Codex, GPT-5.3-Codex', 1.75, 0.175, 14],
    ['gpt-5.2', 'GPT-5.2, GPT-5.2-Codex, GPT-5.3-Codex', 1.75, 0.175, 14],
    ['gpt-5', 'GPT-5, GPT-5-Codex, GPT-5.1, GPT-5.1-Codex, GPT-5.1-Codex-Max', 1.25, 0.125, 10],
    ['gpt-5-codex', 'GPT-5, GPT-5-Codex, GPT-5.1, GPT-5.1-Codex, GPT-5.1-Codex-Max', 1.25, 0.125, 10],
    ['gpt-5.1-codex-max', 'GPT-5, GPT-5-Codex, GPT-5.1, GPT-5.1-Codex, GPT-5.1-Codex-Max', 1.25, 0.125, 10],
    ['gpt-5-mini', 'GPT-5 mini', 0.25, 0.025, 2],
    ['deepseek-chat', 'deepseek-chat', 0.27, 0.07, 1.1],
    ['deepseek-reasoner', 'deepseek-reasoner', 0.55, 0.14, 2.19],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro', 1.25, 0.125, 10],
    ['gemini-3-flash-preview', 'Gemini 3 Flash Preview', 0.5, 0.05, 3],
  ])('[price-table] %s is priced as %s: $%d input, $%d cache read, $%d output per million tokens', (model, models, input, cacheRead, output) => {
    const row = listPriceOf(model);
    expect(row?.models).toBe(models);
    expect(row?.perMTok).toMatchObject({ input, cacheRead, output });
  });

  it.each([['gpt-5.3-codex-spark'], ['gpt-5.6-sol'], ['gpt-5.5-pro'], ['claude-sonnet-5-5'], ['claude-haiku-5-5'], ['gemini-2.5-flash'], ['gemini-3.1-pro-preview'], ['claude-made-up-1'], ['<synthetic>'], ['llama-3.1-70b'], [''], [undefined]])(
    '[price-table] %s has no list price, and the note says so instead of inventing one',
    (model) => {
      expect(listPriceOf(model)).toBeUndefined();
      if (model) expect(priceNote(model)).toBe(`no list price for ${model}`);
    },
  );

  it('[price-table] the note of a priced model gives its rates, source and date', () => {
    expect(priceNote('claude-opus-4-6')).toBe(
      'claude-opus-4-6 (Claude Opus 4.5, 4.6, 4.7, 4.8): $5 input, $0.5 cache read, $6.25 5-minute / $10 1-hour cache write, $25 output per million tokens (https://platform.claude.com/docs/en/about-claude/pricing, read 2026-12-01)',
    );
    expect(priceNote('gpt-5.4')).toMatch(/^gpt-5\.4 \(GPT-5\.4\): \$2\.5 input, \$0\.25 cache read, no cache-write charge, \$15 output per million tokens; standard rate up to 272,000-token prompts \(https:\/\/developers\.openai\.com\/api\/docs\/pricing, read 2026-12-01\)$/);
  });
});
