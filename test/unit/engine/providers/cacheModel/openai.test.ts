import { describe, expect, it } from 'vitest';
import { createCacheModel, type OpenAICacheModelOptions, type PromptSegment } from '../../../../../engine/providers/cacheModel';
import { MIN, SEC, figures, seg } from './helpers';

const GPT = 'gpt-4o-2024-08-06';

interface Step {
  at: number;
  segments: PromptSegment[];
  model?: string;
  cacheKey?: string;
  /** Expected [input, cacheRead]; cacheWrite is always 0. */
  expect: [number, number];
}

interface Case {
  rule: string;
  options?: Partial<OpenAICacheModelOptions>;
  steps: Step[];
}

const head = seg('head', 1300);
const tail = (id: string, tokens = 500): PromptSegment => seg(id, tokens);

const cases: Case[] = [
  {
    // "Cache Miss: If no matching prefix is found, the system processes your full prompt": nothing is cached on the first call.
    rule: 'the first call reads nothing and writes nothing billable',
    steps: [{ at: 0, segments: [head, tail('t1')], expect: [1800, 0] }],
  },
  {
    // Cached tokens come in increments of 128 from 1024: a 1,300-token common prefix caches 1,280.
    rule: 'a 1300-token common prefix caches 1280 tokens',
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 1 * SEC, segments: [head, tail('t2')], expect: [520, 1280] },
    ],
  },
  {
    // An identical prompt reads its whole length rounded down to the 128-token grid (1800 → 1792).
    rule: 'an identical prompt reads its length rounded down to the grid',
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 1 * SEC, segments: [head, tail('t1')], expect: [8, 1792] },
    ],
  },
  {
    // The sequence is 1024, 1152, 1280 …: a common prefix of exactly 1024 caches 1024; 1151 still 1024; 1152 caches 1152.
    rule: 'the grid starts at 1024 and steps by 128',
    steps: [
      { at: 0, segments: [seg('p1024', 1024), tail('t1')], expect: [1524, 0] },
      { at: 1 * SEC, segments: [seg('p1024', 1024), tail('t2')], expect: [500, 1024] },
      { at: 2 * SEC, segments: [seg('p1151', 1151), tail('t1')], expect: [1651, 0] },
      { at: 3 * SEC, segments: [seg('p1151', 1151), tail('t2')], expect: [627, 1024] },
      { at: 4 * SEC, segments: [seg('p1152', 1152), tail('t1')], expect: [1652, 0] },
      { at: 5 * SEC, segments: [seg('p1152', 1152), tail('t2')], expect: [500, 1152] },
    ],
  },
  {
    // "For requests under 1024 tokens, cached_tokens will be zero", even when sent twice.
    rule: 'a prompt under 1024 tokens is never cached',
    steps: [
      { at: 0, segments: [seg('short', 1000)], expect: [1000, 0] },
      { at: 1 * SEC, segments: [seg('short', 1000)], expect: [1000, 0] },
    ],
  },
  {
    // A long prompt whose common prefix with earlier prompts is under 1024 tokens reads nothing.
    rule: 'a common prefix under 1024 tokens reads nothing',
    steps: [
      { at: 0, segments: [seg('p1000', 1000), tail('t1')], expect: [1500, 0] },
      { at: 1 * SEC, segments: [seg('p1000', 1000), tail('t2')], expect: [1500, 0] },
    ],
  },
  {
    // Matching is on the exact prefix: a change at the start invalidates everything after it.
    rule: 'a change at the start misses',
    steps: [
      { at: 0, segments: [seg('sysA', 2000), tail('t1')], expect: [2500, 0] },
      { at: 1 * SEC, segments: [seg('sysB', 2000), tail('t1')], expect: [2500, 0] },
    ],
  },
  {
    // prompt_cache_key scopes the cache: the same prefix under another key (or no key) is not shared.
    rule: 'a different cacheKey does not share',
    steps: [
      { at: 0, cacheKey: 'agent-a', segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 1 * SEC, cacheKey: 'agent-b', segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 2 * SEC, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 3 * SEC, cacheKey: 'agent-a', segments: [head, tail('t2')], expect: [520, 1280] },
    ],
  },
  {
    // Caches are per model.
    rule: 'another model does not share',
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 1 * SEC, model: 'gpt-4.1', segments: [head, tail('t1')], expect: [1800, 0] },
    ],
  },
  {
    // "Cached prefixes generally remain active for 5 to 10 minutes of inactivity": default 5 minutes, so 4:59 hits and 5:00 misses.
    rule: 'a prefix unused for 5 minutes has expired (default TTL)',
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 5 * MIN - SEC, segments: [head, tail('t2')], expect: [520, 1280] },
      { at: 10 * MIN - SEC, segments: [head, tail('t3')], expect: [1800, 0] },
    ],
  },
  {
    // "Of inactivity": each use restarts the clock, so a use at 4 min keeps the prefix until 9 min.
    rule: 'a use at 4 min keeps the prefix until 9 min',
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 4 * MIN, segments: [head, tail('t2')], expect: [520, 1280] },
      { at: 9 * MIN - SEC, segments: [head, tail('t3')], expect: [520, 1280] },
    ],
  },
  {
    // The TTL is a parameter (here 10 minutes, the top of the documented 5–10).
    rule: 'a configured 10-minute TTL keeps the prefix at 9 min',
    options: { ttlMs: 10 * MIN },
    steps: [
      { at: 0, segments: [head, tail('t1')], expect: [1800, 0] },
      { at: 9 * MIN, segments: [head, tail('t2')], expect: [520, 1280] },
      { at: 19 * MIN + SEC, segments: [head, tail('t3')], expect: [1800, 0] },
    ],
  },
  {
    // The longest previously seen prefix wins, across all earlier prompts in the namespace.
    rule: 'the longest common prefix with any earlier prompt is read',
    steps: [
      { at: 0, segments: [head, seg('x', 700), tail('t1')], expect: [2500, 0] },
      { at: 1 * SEC, segments: [head, seg('y', 300), tail('t1')], expect: [820, 1280] },
      { at: 2 * SEC, segments: [head, seg('x', 700), tail('t9')], expect: [580, 1920] },
    ],
  },
];

describe('[cache-model] OpenAI automatic prompt caching, documented rules', () => {
  it.each(cases.map((c) => [c.rule, c] as const))('[cache-model] %s', (_rule, c) => {
    const model = createCacheModel({ provider: 'openai', ...c.options });
    c.steps.forEach((step, i) => {
      const call = { at: step.at, model: step.model ?? GPT, segments: step.segments, ...(step.cacheKey ? { cacheKey: step.cacheKey } : {}) };
      const [input, cacheRead] = step.expect;
      expect(figures(model.observe(call)), `step ${i}`).toEqual({ input, cacheRead, cacheWrite: 0 });
    });
  });

  it('[cache-model] ignores cacheControl (more than 4 markers are fine) and reports the cached segments', () => {
    const model = createCacheModel({ provider: 'openai' });
    const marked = Array.from({ length: 6 }, (_, i) => seg(`m${i}`, 300, '5m'));
    expect(model.observe({ at: 0, model: GPT, segments: marked, outputTokens: 7 })).toEqual({
      input: 1800,
      cacheRead: 0,
      cacheWrite: 0,
      output: 7,
      promptTokens: 1800,
      cachedPrefixSegments: 0,
      cacheWriteByTtl: { '5m': 0, '1h': 0 },
      minCacheableTokens: 1024,
    });
    // 1792 cached tokens cover 5 whole segments (1500) and part of the sixth.
    const again = model.observe({ at: SEC, model: GPT, segments: marked });
    expect([again.cacheRead, again.cachedPrefixSegments]).toEqual([1792, 5]);
  });
});
