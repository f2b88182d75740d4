import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_MIN_CACHEABLE_TOKENS,
  createCacheModel,
  minCacheableTokensFor,
  modelRun,
  type ModelCall,
} from '../../../../../engine/providers/cacheModel';
import { SEC, seg } from './helpers';

describe('[cache-model] minimum cacheable length table', () => {
  it.each([
    // 4096: Claude Opus 4.6, Opus 4.5, Haiku 4.5.
    ['claude-opus-4-6', 4096],
    ['claude-opus-4-5-20251101', 4096],
    ['claude-opus-4.5', 4096],
    ['anthropic/claude-opus-4.6:thinking', 4096],
    ['claude-haiku-4-5-20251001', 4096],
    ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 4096],
    // 2048: Claude Haiku 3.5, Haiku 3.
    ['claude-3-5-haiku-20241022', 2048],
    ['claude-3-5-haiku-latest', 2048],
    ['claude-3-haiku-20240307', 2048],
    // 1024: Sonnet 4.6, 4.5, 4, 3.7, 3.5; Opus 4.1, 4, 3.
    ['claude-sonnet-4-6', 1024],
    ['claude-sonnet-4-5-20250929', 1024],
    ['claude-sonnet-4-5@20250929', 1024],
    ['claude-sonnet-4-20250514', 1024],
    ['claude-opus-4-1-20250805', 1024],
    ['claude-opus-4-20250514', 1024],
    ['claude-3-7-sonnet-20250219', 1024],
    ['claude-3-5-sonnet-20241022', 1024],
    ['claude-3-opus-20240229', 1024],
    // Unknown models get the documented default, 1024.
    ['claude-opus-4-7', 1024],
    ['some-future-model', 1024],
  ])('[cache-model] %s -> %d', (model, expected) => {
    expect(minCacheableTokensFor(model)).toBe(expected);
  });

  it('[cache-model] a custom table replaces the default one', () => {
    const table = { rules: [{ pattern: /opus-4-7/, minTokens: 2048, models: 'Claude Opus 4.7' }, ...ANTHROPIC_MIN_CACHEABLE_TOKENS.rules], defaultMinTokens: 4096 };
    expect(minCacheableTokensFor('claude-opus-4-7', table)).toBe(2048);
    expect(minCacheableTokensFor('mystery', table)).toBe(4096);
    const model = createCacheModel({ provider: 'anthropic', minCacheableTokens: table });
    expect(model.observe({ at: 0, model: 'claude-opus-4-7', segments: [seg('a', 2047, '5m')] }).cacheWrite).toBe(0);
    expect(model.observe({ at: 1, model: 'claude-opus-4-7', segments: [seg('a', 2048, '5m')] }).cacheWrite).toBe(2048);
  });
});

describe('[cache-model] modelRun', () => {
  const calls: ModelCall[] = [
    { at: 0, model: 'claude-sonnet-4-5', segments: [seg('sys', 2000, '5m'), seg('u1', 100)], outputTokens: 10 },
    { at: 30 * SEC, model: 'claude-sonnet-4-5', segments: [seg('sys', 2000, '5m'), seg('u2', 200)], outputTokens: 20 },
    { at: 60 * SEC, model: 'claude-sonnet-4-5', segments: [seg('sys', 2000, '5m'), seg('u3', 300)], outputTokens: 30 },
  ];

  it('[cache-model] per-call usage and totals with the hit rate', () => {
    const run = modelRun('anthropic', calls);
    expect(run.calls.map((u) => [u.input, u.cacheRead, u.cacheWrite, u.output])).toEqual([
      [100, 0, 2000, 10],
      [200, 2000, 0, 20],
      [300, 2000, 0, 30],
    ]);
    // hitRate = cacheRead / (input + cacheRead + cacheWrite) = 4000 / (600 + 4000 + 2000).
    expect(run.totals).toEqual({ input: 600, cacheRead: 4000, cacheWrite: 2000, output: 60, hitRate: 4000 / 6600 });
  });

  it('[cache-model] takes options, and is the same as observing the calls one by one', () => {
    const run = modelRun({ provider: 'openai', ttlMs: 1 }, calls);
    expect(run.totals.cacheRead).toBe(0);
    const model = createCacheModel({ provider: 'anthropic' });
    expect(modelRun('anthropic', calls).calls).toEqual(calls.map((c) => model.observe(c)));
  });

  it('[cache-model] an empty run has zero totals and hit rate 0', () => {
    expect(modelRun('openai', [])).toEqual({ calls: [], totals: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, hitRate: 0 } });
  });
});
