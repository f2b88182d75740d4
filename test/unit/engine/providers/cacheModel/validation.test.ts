import { describe, expect, it } from 'vitest';
import { createCacheModel, modelRun, type CacheModel, type CacheProvider, type ModelCall } from '../../../../../engine/providers/cacheModel';
import { MIN, SEC, seg } from './helpers';

const SONNET = 'claude-sonnet-4-5';
const good: ModelCall = { at: 10 * SEC, model: SONNET, segments: [seg('sys', 2000, '5m'), seg('u', 100)] };

/** A model that has seen one call at `good.at`, and the usage an identical call then gets. */
function primed(provider: CacheProvider): CacheModel {
  const model = createCacheModel({ provider });
  model.observe(good);
  return model;
}

type Bad = [what: string, call: unknown, error: typeof TypeError | typeof RangeError, message: RegExp, providers?: CacheProvider[]];

// Each refused call would, if it were applied, move the clock to 20 min or touch the cache.
const later = 20 * MIN;
const bad: Bad[] = [
  ['not an object', null, TypeError, /call must be an object/],
  ['at is NaN', { ...good, at: Number.NaN }, RangeError, /call\.at must be a finite number/],
  ['at is a string', { ...good, at: '1000' }, RangeError, /call\.at must be a finite number/],
  ['at earlier than the previous call', { ...good, at: 9 * SEC }, RangeError, /earlier than the previous call's 10000: calls must be observed in time order/],
  ['empty model', { ...good, at: later, model: '' }, TypeError, /call\.model must be a non-empty string/],
  ['cacheKey not a string', { ...good, at: later, cacheKey: 7 }, TypeError, /call\.cacheKey must be a string/],
  ['segments not an array', { ...good, at: later, segments: 'x' }, TypeError, /call\.segments must be an array/],
  ['no segments', { ...good, at: later, segments: [] }, RangeError, /at least one segment/],
  ['a segment that is not an object', { ...good, at: later, segments: [seg('a', 2000), 5] }, TypeError, /segments\[1\] must be an object/],
  ['empty segment id', { ...good, at: later, segments: [seg('', 2000)] }, TypeError, /segments\[0\]\.id must be a non-empty string/],
  ['negative tokens', { ...good, at: later, segments: [seg('a', 2000, '5m'), seg('b', -1)] }, RangeError, /segments\[1\]\.tokens must be a non-negative integer, got -1/],
  ['fractional tokens', { ...good, at: later, segments: [seg('a', 2000.5, '5m')] }, RangeError, /segments\[0\]\.tokens must be a non-negative integer, got 2000\.5/],
  ['infinite tokens', { ...good, at: later, segments: [seg('a', Infinity, '5m')] }, RangeError, /segments\[0\]\.tokens must be a non-negative integer/],
  ['unknown TTL', { ...good, at: later, segments: [{ id: 'a', tokens: 2000, cacheControl: '2h' }] }, RangeError, /segments\[0\]\.cacheControl must be '5m' or '1h'/],
  ['negative outputTokens', { ...good, at: later, outputTokens: -3 }, RangeError, /call\.outputTokens must be a non-negative integer/],
  ['token sum beyond exact integers', { ...good, at: later, segments: [seg('a', Number.MAX_SAFE_INTEGER), seg('b', 2)] }, RangeError, /more tokens than can be counted exactly/],
  [
    // "You can define up to 4 cache breakpoints."
    'five breakpoints (Anthropic)',
    { ...good, at: later, segments: Array.from({ length: 5 }, (_, i) => seg(`b${i}`, 500, '5m')) },
    RangeError,
    /carry 5 cacheControl breakpoints; Anthropic allows at most 4/,
    ['anthropic'],
  ],
  [
    // "Cache entries with longer TTL must appear before shorter TTLs."
    'a 1h breakpoint after a 5m one (Anthropic)',
    { ...good, at: later, segments: [seg('a', 2000, '5m'), seg('b', 2000, '1h')] },
    RangeError,
    /segments\[1\]\.cacheControl '1h' follows a '5m' breakpoint/,
    ['anthropic'],
  ],
];

describe('[cache-model] invalid calls are refused and change no state', () => {
  for (const provider of ['anthropic', 'openai'] as const) {
    const cases = bad.filter(([, , , , only]) => !only || only.includes(provider));
    it.each(cases)(`[cache-model] ${provider}: %s`, (_what, call, error, message) => {
      const model = primed(provider);
      const reference = primed(provider);
      const before = model.stats();
      let thrown: unknown;
      try {
        model.observe(call as ModelCall);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(error);
      expect((thrown as Error).message).toMatch(message);
      expect(model.stats()).toEqual(before);
      // The clock did not move (a call at 11 s is still accepted) and the cache is the reference's.
      const next: ModelCall = { ...good, at: 11 * SEC };
      expect(model.observe(next)).toEqual(reference.observe(next));
      expect(model.stats()).toEqual(reference.stats());
    });
  }

  it('[cache-model] a call at the same time as the previous one is accepted', () => {
    const model = primed('anthropic');
    expect(model.observe(good).cacheRead).toBe(2000);
  });

  it('[cache-model] OpenAI accepts a 1h marker after a 5m one (it ignores markers)', () => {
    const model = createCacheModel({ provider: 'openai' });
    expect(() => model.observe({ ...good, segments: [seg('a', 2000, '5m'), seg('b', 2000, '1h')] })).not.toThrow();
  });

  it.each([
    [{ provider: 'gemini' }, RangeError, /provider must be 'anthropic' or 'openai'/],
    [{ provider: 'anthropic', ttlMs: { '5m': 0 } }, RangeError, /ttlMs\['5m'\] must be a positive number/],
    [{ provider: 'anthropic', lookbackBlocks: -1 }, RangeError, /lookbackBlocks must be a non-negative integer/],
    [{ provider: 'anthropic', minCacheableTokens: { rules: [{ pattern: /opus/g, minTokens: 1, models: 'x' }], defaultMinTokens: 1024 } }, TypeError, /without the g or y flag/],
    [{ provider: 'openai', ttlMs: -5 }, RangeError, /ttlMs must be a positive number/],
    [{ provider: 'openai', incrementTokens: 0 }, RangeError, /incrementTokens must be at least 1/],
    [{ provider: 'openai', sweepIntervalMs: Number.NaN }, RangeError, /sweepIntervalMs must be a positive number/],
  ])('[cache-model] refuses invalid options %j', (options, error, message) => {
    expect(() => createCacheModel(options as never)).toThrow(error);
    expect(() => createCacheModel(options as never)).toThrow(message);
  });

  it('[cache-model] modelRun names the offending call', () => {
    const calls: ModelCall[] = [good, { ...good, at: 11 * SEC }, { ...good, at: 5 * SEC }];
    expect(() => modelRun('anthropic', calls)).toThrow(RangeError);
    expect(() => modelRun('anthropic', calls)).toThrow(/^cache model: calls\[2\]\.at 5000 is earlier than the previous call's 11000/);
    expect(() => modelRun('openai', [{ ...good, segments: [seg('a', -1)] }])).toThrow(/calls\[0\]\.segments\[0\]\.tokens/);
  });
});
