import { describe, expect, it } from 'vitest';
import { createCacheModel, type ModelCall, type PromptSegment } from '../../../../../engine/providers/cacheModel';
import { MIN, SEC, blocks, figures, seg, withBreakpoint } from './helpers';

// Sonnet 4.5: documented minimum cacheable length 1024 tokens.
const SONNET = 'claude-sonnet-4-5-20250929';

interface Step {
  at: number;
  segments: PromptSegment[];
  model?: string;
  cacheKey?: string;
  /** Expected [input, cacheRead, cacheWrite]. */
  expect: [number, number, number];
}

interface Case {
  rule: string;
  steps: Step[];
}

const sys = seg('sys', 2000, '5m');
const user = (id: string, tokens = 100): PromptSegment => seg(id, tokens);
// 30 blocks of 200 tokens: a history long enough to exercise the 20-block lookback.
const history = blocks('h', 31, 200);

const cases: Case[] = [
  {
    // "Otherwise, it processes the full prompt and caches the prefix": the first call writes the prefix up to the breakpoint.
    rule: 'the first call writes the breakpointed prefix; the rest is input',
    steps: [{ at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] }],
  },
  {
    // "The system checks if a prompt prefix, up to a specified cache breakpoint, is already cached from a recent query."
    rule: 'an identical call within the TTL reads the whole breakpointed prefix',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 1 * MIN, segments: [sys, user('u1')], expect: [100, 2000, 0] },
    ],
  },
  {
    // The cache is the prefix up to and including the breakpoint's block: a change after it does not matter.
    rule: 'a different tail after the breakpoint still reads the prefix',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 1 * MIN, segments: [sys, user('u2', 300)], expect: [300, 2000, 0] },
    ],
  },
  {
    // "Changes at each level invalidate that level and all subsequent levels": a changed late segment
    // keeps the earlier breakpoint's prefix (read) and rewrites only from there to the later breakpoint.
    rule: 'a change in a late segment keeps the earlier breakpoint prefix',
    steps: [
      { at: 0, segments: [seg('tools', 1500, '5m'), seg('sys2', 500), seg('hist-a', 3000, '5m'), user('u1', 50)], expect: [50, 0, 5000] },
      { at: 1 * MIN, segments: [seg('tools', 1500, '5m'), seg('sys2', 500), seg('hist-b', 3000, '5m'), user('u1', 50)], expect: [50, 1500, 3500] },
    ],
  },
  {
    // "Shorter prompts cannot be cached, even if marked with cache_control": no write, and never a read.
    rule: 'a prefix below the minimum (1024 for Sonnet 4.5) is never cached',
    steps: [
      { at: 0, segments: [seg('small', 1023, '5m'), user('u1', 10)], expect: [1033, 0, 0] },
      { at: 1 * MIN, segments: [seg('small', 1023, '5m'), user('u1', 10)], expect: [1033, 0, 0] },
    ],
  },
  {
    // The minimum applies to the whole prefix up to the breakpoint, not to the marked block alone.
    rule: 'the minimum counts the whole prefix up to the breakpoint',
    steps: [
      { at: 0, segments: [seg('a', 600), seg('b', 424, '5m'), user('u1', 10)], expect: [10, 0, 1024] },
      { at: 1 * MIN, segments: [seg('a', 600), seg('b', 424, '5m'), user('u1', 10)], expect: [10, 1024, 0] },
    ],
  },
  {
    // Haiku 3.5: documented minimum 2048 tokens.
    rule: 'Haiku 3.5 needs 2048 tokens',
    steps: [
      { at: 0, model: 'claude-3-5-haiku-20241022', segments: [seg('p', 2047, '5m')], expect: [2047, 0, 0] },
      { at: 1 * SEC, model: 'claude-3-5-haiku-20241022', segments: [seg('q', 2048, '5m')], expect: [0, 0, 2048] },
    ],
  },
  {
    // Opus 4.5 and Haiku 4.5: documented minimum 4096 tokens.
    rule: 'Opus 4.5 and Haiku 4.5 need 4096 tokens',
    steps: [
      { at: 0, model: 'claude-opus-4-5-20251101', segments: [seg('p', 4095, '5m')], expect: [4095, 0, 0] },
      { at: 1 * SEC, model: 'claude-opus-4-5-20251101', segments: [seg('q', 4096, '5m')], expect: [0, 0, 4096] },
      { at: 2 * SEC, model: 'claude-haiku-4-5', segments: [seg('p', 4095, '5m')], expect: [4095, 0, 0] },
    ],
  },
  {
    // "By default, the cache has a 5-minute lifetime", counted from the last use: read at 4:59, gone at 9:59.
    rule: 'a 5-minute entry read at 4:59 is refreshed then and gone 5 minutes after that use',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 5 * MIN - SEC, segments: [sys, user('u1')], expect: [100, 2000, 0] },
      { at: 10 * MIN - SEC, segments: [sys, user('u1')], expect: [100, 0, 2000] },
    ],
  },
  {
    // Without a use in between, the entry written at 0 has expired at 5:00.
    rule: 'an unused 5-minute entry expires',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 5 * MIN, segments: [sys, user('u1')], expect: [100, 0, 2000] },
    ],
  },
  {
    // "The cache is refreshed for no additional cost each time the cached content is used": a hit at 4 min keeps it to 9 min.
    rule: 'a hit at 4 min keeps a 5-minute entry alive until 9 min',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 4 * MIN, segments: [sys, user('u2')], expect: [100, 2000, 0] },
      { at: 9 * MIN - SEC, segments: [sys, user('u3')], expect: [100, 2000, 0] },
    ],
  },
  {
    // The refreshed lifetime still ends: 5 minutes after the last use (4 min) is 9 min.
    rule: 'after a refresh at 4 min the entry is gone at 9 min',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 4 * MIN, segments: [sys, user('u2')], expect: [100, 2000, 0] },
      { at: 9 * MIN, segments: [sys, user('u3')], expect: [100, 0, 2000] },
    ],
  },
  {
    // The refresh applies to the cached content that was used, even when it is found by the lookback
    // rather than at one of this call's breakpoints: the entry at block 9, read at 4 min, lives to 9 min.
    rule: 'a lookback hit refreshes the entry it reads',
    steps: [
      { at: 0, segments: withBreakpoint(history.slice(0, 10), 9), expect: [0, 0, 2000] },
      { at: 4 * MIN, segments: withBreakpoint(history.slice(0, 16), 15), expect: [0, 2000, 1200] },
      { at: 9 * MIN - SEC, segments: withBreakpoint([...history.slice(0, 10), ...blocks('x', 3, 200)], 12), expect: [0, 2000, 600] },
    ],
  },
  {
    // `ttl: "1h"`: a 1-hour entry outlives the 5-minute default and is written as a 1h write.
    rule: 'a 1h entry is read at 59 min and gone 1 h after that use',
    steps: [
      { at: 0, segments: [seg('sys', 2000, '1h'), user('u1')], expect: [100, 0, 2000] },
      { at: 59 * MIN, segments: [seg('sys', 2000, '1h'), user('u2')], expect: [100, 2000, 0] },
      { at: 59 * MIN + 60 * MIN, segments: [seg('sys', 2000, '1h'), user('u3')], expect: [100, 0, 2000] },
    ],
  },
  {
    // "Checks for cache hits at all previous content block boundaries (up to approximately 20 blocks before your explicit breakpoint)".
    rule: 'the lookback finds a prefix cached 20 blocks before the breakpoint',
    steps: [
      { at: 0, segments: withBreakpoint(history.slice(0, 10), 9), expect: [0, 0, 2000] },
      { at: 1 * MIN, segments: withBreakpoint(history.slice(0, 30), 29), expect: [0, 2000, 4000] },
    ],
  },
  {
    // "Content earlier than that won't be checked for cache hits unless you add additional breakpoints": 21 blocks back is a miss.
    rule: 'the lookback does not find a prefix cached 21 blocks before the breakpoint',
    steps: [
      { at: 0, segments: withBreakpoint(history.slice(0, 10), 9), expect: [0, 0, 2000] },
      { at: 1 * MIN, segments: withBreakpoint(history.slice(0, 31), 30), expect: [0, 0, 6200] },
    ],
  },
  {
    // "Ensure caching for content more than 20 blocks before your final breakpoint": a second breakpoint brings it back.
    rule: 'a second breakpoint reaches a prefix the lookback cannot',
    steps: [
      { at: 0, segments: withBreakpoint(history.slice(0, 10), 9), expect: [0, 0, 2000] },
      { at: 1 * MIN, segments: withBreakpoint(withBreakpoint(history.slice(0, 31), 9), 30), expect: [0, 2000, 4200] },
    ],
  },
  {
    // An append-only conversation with a breakpoint on its last block: each turn reads the previous
    // turn's prefix and writes only what is new (a write is counted once, then read).
    rule: 'a growing conversation writes each token once and reads it afterwards',
    steps: [
      { at: 0, segments: [sys, seg('u1', 500, '5m')], expect: [0, 0, 2500] },
      { at: 30 * SEC, segments: [sys, seg('u1', 500), seg('a1', 300), seg('u2', 200, '5m')], expect: [0, 2500, 500] },
      { at: 60 * SEC, segments: [sys, seg('u1', 500), seg('a1', 300), seg('u2', 200), seg('a2', 100), seg('u3', 100, '5m')], expect: [0, 3000, 200] },
    ],
  },
  {
    // Mixed TTLs, billed at three positions: A = the hit, B = the last 1h breakpoint after A, C = the last breakpoint;
    // (B − A) is a 1h write, (C − B) a 5m write. After 10 minutes only the 1h entry survives.
    rule: 'mixed TTLs: the 1h prefix survives the 5m one',
    steps: [
      { at: 0, segments: [seg('sys', 2000, '1h'), seg('docs', 3000, '5m'), user('u1')], expect: [100, 0, 5000] },
      { at: 10 * MIN, segments: [seg('sys', 2000, '1h'), seg('docs', 3000, '5m'), user('u2')], expect: [100, 2000, 3000] },
    ],
  },
  {
    // Only the marked prefixes are cached: a long prompt with no breakpoint is all input.
    rule: 'no breakpoint, no caching',
    steps: [
      { at: 0, segments: [seg('sys', 5000), user('u1')], expect: [5100, 0, 0] },
      { at: 1 * SEC, segments: [seg('sys', 5000), user('u1')], expect: [5100, 0, 0] },
    ],
  },
  {
    // Caches are per model: the same prefix sent to another model is written again.
    rule: 'another model does not share the cache',
    steps: [
      { at: 0, segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 1 * SEC, model: 'claude-opus-4-1-20250805', segments: [sys, user('u1')], expect: [100, 0, 2000] },
    ],
  },
  {
    // Anthropic has no prompt_cache_key: a cacheKey changes nothing.
    rule: 'cacheKey is ignored',
    steps: [
      { at: 0, cacheKey: 'agent-a', segments: [sys, user('u1')], expect: [100, 0, 2000] },
      { at: 1 * SEC, cacheKey: 'agent-b', segments: [sys, user('u1')], expect: [100, 2000, 0] },
    ],
  },
];

describe('[cache-model] Anthropic prompt caching, documented rules', () => {
  it.each(cases.map((c) => [c.rule, c] as const))('[cache-model] %s', (_rule, c) => {
    const model = createCacheModel({ provider: 'anthropic' });
    c.steps.forEach((step, i) => {
      const call: ModelCall = { at: step.at, model: step.model ?? SONNET, segments: step.segments, ...(step.cacheKey ? { cacheKey: step.cacheKey } : {}) };
      const [input, cacheRead, cacheWrite] = step.expect;
      expect(figures(model.observe(call)), `step ${i}`).toEqual({ input, cacheRead, cacheWrite });
    });
  });

  it('[cache-model] reports the write split by TTL, the cached segments and the minimum used', () => {
    const model = createCacheModel({ provider: 'anthropic' });
    const segments = [seg('sys', 2000, '1h'), seg('docs', 3000, '5m'), user('u1')];
    const first = model.observe({ at: 0, model: SONNET, segments, outputTokens: 42 });
    expect(first).toEqual({
      input: 100,
      cacheRead: 0,
      cacheWrite: 5000,
      output: 42,
      promptTokens: 5100,
      cachedPrefixSegments: 0,
      cacheWriteByTtl: { '1h': 2000, '5m': 3000 },
      minCacheableTokens: 1024,
    });
    const second = model.observe({ at: MIN, model: SONNET, segments });
    expect(second.cachedPrefixSegments).toBe(2);
    expect(second.cacheWriteByTtl).toEqual({ '1h': 0, '5m': 0 });
    expect(second.output).toBe(0);
  });

  it('[cache-model] a 1h write inside the lookback of a 5m breakpoint is billed as 1h up to the last 1h breakpoint', () => {
    // Position B is the highest 1-hour breakpoint after the hit: the tokens before it are a 1h write.
    const model = createCacheModel({ provider: 'anthropic' });
    const u = model.observe({ at: 0, model: SONNET, segments: [seg('a', 1500, '1h'), seg('b', 700, '1h'), seg('c', 800, '5m'), user('u1')] });
    expect(u.cacheWriteByTtl).toEqual({ '1h': 2200, '5m': 800 });
  });

  it('[cache-model] configurable lifetimes and lookback', () => {
    const model = createCacheModel({ provider: 'anthropic', ttlMs: { '5m': 10 * MIN }, lookbackBlocks: 5 });
    model.observe({ at: 0, model: SONNET, segments: withBreakpoint(history.slice(0, 10), 9) });
    // 7 minutes later is inside the 10-minute lifetime, but 6 blocks back is outside a 5-block lookback.
    expect(model.observe({ at: 7 * MIN, model: SONNET, segments: withBreakpoint(history.slice(0, 16), 15) }).cacheRead).toBe(0);
    expect(model.observe({ at: 8 * MIN, model: SONNET, segments: withBreakpoint(history.slice(0, 20), 19) }).cacheRead).toBe(3200);
  });
});
