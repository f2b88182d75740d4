import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCacheModel,
  modelRun,
  type CacheModelOptions,
  type CacheProvider,
  type ModelCall,
  type ModeledUsage,
  type PromptSegment,
} from '../../../../../engine/providers/cacheModel';
import { MIN } from './helpers';

/**
 * Random runs that look like agents: each call keeps a random prefix of the previous prompt and
 * appends segments from a small pool (so prefixes are shared often); segment ids stand for content,
 * so one id always has the same token count. Breakpoints: up to 4, the 1h ones first.
 */
const POOL = 10;
const runArb = fc
  .record({
    tokensById: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: POOL, maxLength: POOL }),
    steps: fc.array(
      fc.record({
        gap: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 90_000 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 70 * MIN }), weight: 1 }),
        keep: fc.nat(),
        keepAll: fc.boolean(),
        append: fc.array(fc.nat(POOL - 1), { minLength: 0, maxLength: 8 }),
        model: fc.oneof({ arbitrary: fc.constant('claude-sonnet-4-5'), weight: 4 }, fc.constant('claude-3-5-haiku-20241022'), fc.constant('gpt-4o')),
        cacheKey: fc.option(fc.constantFrom('agent-1', 'agent-2'), { nil: undefined }),
        breakpoints: fc.uniqueArray(fc.nat(40), { maxLength: 3 }),
        markLast: fc.boolean(),
        oneHour: fc.nat(4),
        output: fc.nat(500),
      }),
      { minLength: 1, maxLength: 25 },
    ),
  })
  .map(({ tokensById, steps }) => {
    const calls: ModelCall[] = [];
    let at = 1_700_000_000_000;
    let previous: number[] = [];
    for (const step of steps) {
      at += step.gap;
      let ids = [...previous.slice(0, step.keepAll ? previous.length : step.keep % (previous.length + 1)), ...step.append];
      if (ids.length === 0) ids = [step.keep % POOL];
      const marks = [...new Set([...step.breakpoints.filter((b) => b < ids.length), ...(step.markLast ? [ids.length - 1] : [])])].sort((a, b) => a - b);
      const segments: PromptSegment[] = ids.map((id, i) => {
        const rank = marks.indexOf(i);
        const base = { id: `s${id}`, tokens: tokensById[id]! };
        return rank < 0 ? base : { ...base, cacheControl: rank < step.oneHour ? '1h' : '5m' };
      });
      calls.push({ at, model: step.model, segments, outputTokens: step.output, ...(step.cacheKey ? { cacheKey: step.cacheKey } : {}) });
      previous = ids;
    }
    return calls;
  });

const total = (call: ModelCall): number => call.segments.reduce((n, s) => n + s.tokens, 0);

/** Tokens of the longest common prefix (by segment id) of two prompts. */
function commonPrefixTokens(a: readonly PromptSegment[], b: readonly PromptSegment[]): number {
  let tokens = 0;
  for (let i = 0; i < Math.min(a.length, b.length) && a[i]!.id === b[i]!.id; i++) tokens += a[i]!.tokens;
  return tokens;
}

const run = (options: CacheModelOptions, calls: readonly ModelCall[]): ModeledUsage[] => modelRun(options, calls).calls;
const PROVIDERS: CacheProvider[] = ['anthropic', 'openai'];

describe('[cache-model] properties', () => {
  it.each(PROVIDERS)('[cache-model] %s: input + cacheRead + cacheWrite is always the prompt, none negative', (provider) => {
    fc.assert(
      fc.property(runArb, (calls) => {
        run({ provider }, calls).forEach((u, i) => {
          expect(u.input + u.cacheRead + u.cacheWrite).toBe(total(calls[i]!));
          expect(u.promptTokens).toBe(total(calls[i]!));
          expect(Math.min(u.input, u.cacheRead, u.cacheWrite)).toBeGreaterThanOrEqual(0);
          expect(u.output).toBe(calls[i]!.outputTokens);
        });
      }),
    );
  });

  it.each(PROVIDERS)('[cache-model] %s: cacheRead never exceeds the longest common prefix with an earlier call', (provider) => {
    fc.assert(
      fc.property(runArb, (calls) => {
        run({ provider }, calls).forEach((u, i) => {
          const bound = Math.max(0, ...calls.slice(0, i).map((earlier) => commonPrefixTokens(earlier.segments, calls[i]!.segments)));
          expect(u.cacheRead).toBeLessThanOrEqual(bound);
        });
      }),
    );
  });

  it.each(PROVIDERS)('[cache-model] %s: deterministic, and sweeping expired entries never changes a figure', (provider) => {
    fc.assert(
      fc.property(runArb, (calls) => {
        const first = run({ provider }, calls);
        expect(run({ provider }, calls)).toEqual(first);
        expect(run({ provider, sweepIntervalMs: 1 }, calls)).toEqual(first);
        expect(run({ provider, sweepIntervalMs: Number.MAX_SAFE_INTEGER }, calls)).toEqual(first);
      }),
    );
  });

  it.each(PROVIDERS)('[cache-model] %s: a refused call in the middle of a run changes nothing', (provider) => {
    fc.assert(
      fc.property(runArb, fc.nat(), (calls, where) => {
        const model = createCacheModel({ provider });
        const cut = where % (calls.length + 1);
        const usages: ModeledUsage[] = [];
        calls.forEach((call, i) => {
          if (i === cut) {
            const broken = { ...call, at: call.at + 10 * MIN, segments: [...call.segments, { id: 'x', tokens: -1 }] };
            expect(() => model.observe(broken)).toThrow(RangeError);
          }
          usages.push(model.observe(call));
        });
        expect(usages).toEqual(run({ provider }, calls));
      }),
    );
  });

  it('[cache-model] openai: cached tokens are 0 or on the 1024 + 128k grid, and nothing is written', () => {
    fc.assert(
      fc.property(runArb, (calls) => {
        for (const u of run({ provider: 'openai' }, calls)) {
          expect(u.cacheWrite).toBe(0);
          if (u.cacheRead !== 0) {
            expect(u.cacheRead).toBeGreaterThanOrEqual(1024);
            expect((u.cacheRead - 1024) % 128).toBe(0);
          }
        }
      }),
    );
  });

  it('[cache-model] anthropic: nothing beyond the last breakpoint is cached, nothing below the minimum, writes split by TTL', () => {
    fc.assert(
      fc.property(runArb, (calls) => {
        run({ provider: 'anthropic' }, calls).forEach((u, i) => {
          const segments = calls[i]!.segments;
          let last = -1;
          segments.forEach((s, j) => {
            if (s.cacheControl) last = j;
          });
          const throughLast = segments.slice(0, last + 1).reduce((n, s) => n + s.tokens, 0);
          expect(u.cacheRead + u.cacheWrite).toBeLessThanOrEqual(throughLast);
          if (throughLast < u.minCacheableTokens) expect(u.cacheRead + u.cacheWrite).toBe(0);
          expect(u.cacheWriteByTtl['5m'] + u.cacheWriteByTtl['1h']).toBe(u.cacheWrite);
        });
      }),
    );
  });
});
