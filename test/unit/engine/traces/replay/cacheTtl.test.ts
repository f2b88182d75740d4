import { describe, expect, it } from 'vitest';
import { createCacheModel, type CacheTtl } from '../../../../../engine/providers/cacheModel';
import type { Tokenizer } from '../../../../../engine/tokens/Tokenizer';
import { chooseTtl, recordedTtl, ttlLabel } from '../../../../../engine/traces/replay/cacheTtl';
import { replayFullHistoryBaseline } from '../../../../../engine/traces/replay/replayTranscript';
import { SegmentPricer } from '../../../../../engine/traces/replay/replayRequest';
import { replayTrace } from '../../../../../engine/traces/replay/replayTrace';
import { runReplayJob } from '../../../../../engine/node/traces/replayWorker';
import type { TraceEvent, UsageEvent } from '../../../../../engine/traces/TraceEvent';

const source = { file: 'made-up.jsonl', line: 1 };
const usage = (cacheWrite: number, cacheWrite1h: number | undefined, over: Partial<UsageEvent> = {}): TraceEvent => ({
  type: 'usage',
  input: 10,
  cacheRead: 100,
  cacheWrite,
  ...(cacheWrite1h === undefined ? {} : { cacheWrite1h }),
  output: 5,
  source,
  ...over,
});

describe('[replay-ttl] the cache lifetime a replay asks for', () => {
  it.each<[string, TraceEvent[], CacheTtl | undefined]>([
    ['no usage', [], undefined],
    ['usage that does not split its writes', [usage(300, undefined), usage(200, undefined)], undefined],
    ['writes split but none written', [usage(0, 0)], undefined],
    ['all writes for an hour', [usage(300, 300), usage(200, 200)], '1h'],
    ['most writes for an hour', [usage(300, 300), usage(200, 0)], '1h'],
    ['half for an hour is not most', [usage(300, 150)], '5m'],
    ['most writes for 5 minutes', [usage(300, 100), usage(200, 0)], '5m'],
    // A subagent's writes are not the main agent's (the replay prices the main agent).
    ['a subagent writing for an hour', [usage(300, 0), usage(5000, 5000, { agentId: 'explorer' })], '5m'],
  ])('[replay-ttl] recordedTtl: %s -> %s', (_, events, ttl) => {
    expect(recordedTtl(events)).toBe(ttl);
  });

  it('[replay-ttl] an option wins over the recording, the recording over the 5-minute default; every choice says why', () => {
    const oneHour = [usage(300, 300)];
    expect(chooseTtl(oneHour)).toEqual({ ttl: '1h', source: 'recording' });
    expect(chooseTtl(oneHour, '5m')).toEqual({ ttl: '5m', source: 'option' });
    expect(chooseTtl([usage(300, undefined)])).toEqual({ ttl: '5m', source: 'default' });
    expect(chooseTtl([], '1h')).toEqual({ ttl: '1h', source: 'option' });
    expect(ttlLabel({ ttl: '1h', source: 'recording' })).toBe('1h: from the recording');
    expect(ttlLabel({ ttl: '5m', source: 'default' })).toBe('5m: default');
    expect(ttlLabel({ ttl: '1h', source: 'option' })).toBe('1h: --ttl');
    expect(ttlLabel({ ttl: '5m', source: 'option' }, 'the TTL option')).toBe('5m: the TTL option');
  });

  it('[replay-ttl] SegmentPricer puts its TTL on every breakpoint, so the cache model writes for that lifetime', () => {
    const segments = [
      { text: 'x'.repeat(8000), breakpoint: true },
      { text: 'y'.repeat(8000), breakpoint: true },
      { text: 'tail', breakpoint: false },
    ];
    const count = (t: string) => Math.ceil(t.length / 4);
    for (const ttl of ['5m', '1h'] as const) {
      const pricer = new SegmentPricer(createCacheModel({ provider: 'anthropic' }), count, ttl);
      expect(segments.filter((s) => s.breakpoint).map((s) => pricer.segment(s).cacheControl)).toEqual([ttl, ttl]);
      const u = pricer.price(segments, { at: 0, model: 'claude-sonnet-4-5', cacheKey: 'k', outputTokens: 0 });
      expect(u.cacheWriteByTtl).toEqual(ttl === '1h' ? { '5m': 0, '1h': 4000 } : { '5m': 4000, '1h': 0 });
    }
    expect(new SegmentPricer(createCacheModel({ provider: 'anthropic' }), count).ttl).toBe('5m');
  });
});

/** A Claude session of 4 steps, 10 minutes apart (past a 5-minute lifetime, within an hour), whose writes were 1-hour ones. */
function claudeSession(cacheWrite1h: number | undefined): TraceEvent[] {
  const T0 = Date.parse('2026-03-01T10:00:00.000Z');
  const iso = (min: number) => new Date(T0 + min * 60_000).toISOString();
  const ev: TraceEvent[] = [
    { type: 'instructions', role: 'system', text: 'You are a careful agent working on a payments service. '.repeat(400), source },
    { type: 'user_input', text: 'Fix src/a.ts', at: iso(0), source },
  ];
  for (let s = 0; s < 4; s++) {
    ev.push({ type: 'assistant_text', text: `step ${s}`, step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_call', callId: `c${s}`, name: 'Read', arguments: JSON.stringify({ file_path: `src/f${s}.ts` }), step: s, at: iso(s * 10), source });
    ev.push({ type: 'usage', input: 10, cacheRead: 6000, cacheWrite: 500, ...(cacheWrite1h === undefined ? {} : { cacheWrite1h }), output: 20, model: 'claude-opus-4-6', step: s, at: iso(s * 10), source });
    ev.push({ type: 'tool_result', callId: `c${s}`, content: `export const value${s} = ${s};\n`.repeat(80), isError: false, at: iso(s * 10 + 1), source });
  }
  return ev;
}

const quarter: Tokenizer = { encoding: 'quarter', count: (t) => Math.ceil(t.length / 4) };

describe('[replay-ttl] replays priced with the recording’s lifetime', () => {
  it('[replay-ttl] a recording of 1-hour writes is replayed with 1-hour breakpoints: reads survive 10-minute gaps, writes are priced at the 1-hour rate', () => {
    const r = replayFullHistoryBaseline(claudeSession(500), { provider: 'anthropic', tokenizer: quarter });
    expect(r.cacheTtl).toEqual({ ttl: '1h', source: 'recording' });
    expect(r.model).toBe('claude-opus-4-6');
    // Every step after the first reads the previous request back, 10 minutes later.
    for (const s of r.steps.slice(1)) expect(s.cacheRead).toBe(r.steps[s.index - 1]!.promptTokens);
    expect(r.totals.cacheWrite1h).toBe(r.totals.cacheWrite);
    expect(r.totals.cacheWrite).toBeGreaterThan(0);
    // Opus 4.6: $10 per million 1-hour written tokens, $0.50 read, $5 input, $25 output.
    const t = r.totals;
    expect(t.costUsd!.cacheWrite).toBeCloseTo((t.cacheWrite * 10) / 1e6, 12);
    expect(t.costUsd!.prompt).toBeCloseTo((t.input * 5 + t.cacheRead * 0.5 + t.cacheWrite * 10) / 1e6, 12);
    expect(t.costUsd!.output).toBeCloseTo((t.output * 25) / 1e6, 12);
    expect(t.pricing.note).toMatch(/^claude-opus-4-6 \(Claude Opus 4\.5, 4\.6, 4\.7, 4\.8\): .*read 2026-12-01\)$/);
  });

  it('[replay-ttl] the 5-minute default (a recording that does not split its writes, or --ttl 5m) misses after every 10-minute gap and writes again', () => {
    const byDefault = replayFullHistoryBaseline(claudeSession(undefined), { provider: 'anthropic', tokenizer: quarter });
    const forced = replayFullHistoryBaseline(claudeSession(500), { provider: 'anthropic', tokenizer: quarter, ttl: '5m' });
    expect(byDefault.cacheTtl).toEqual({ ttl: '5m', source: 'default' });
    expect(forced.cacheTtl).toEqual({ ttl: '5m', source: 'option' });
    for (const r of [byDefault, forced]) {
      for (const s of r.steps) expect(s.cacheRead).toBe(0);
      expect(r.totals.cacheWrite1h).toBe(0);
      expect(r.totals.costUsd!.cacheWrite).toBeCloseTo((r.totals.cacheWrite * 6.25) / 1e6, 12);
    }
    const oneHour = replayFullHistoryBaseline(claudeSession(500), { provider: 'anthropic', tokenizer: quarter });
    // Same tokens sent; the hour-long cache is cheaper here because it is read back instead of written again.
    expect(oneHour.totals.promptTokens).toBe(forced.totals.promptTokens);
    expect(oneHour.totals.costUsd!.prompt).toBeLessThan(forced.totals.costUsd!.prompt);
  });

  it('[replay-ttl] the engine replay and the worker jobs take the same choice: every row of a trace is priced with one lifetime', () => {
    const events = claudeSession(500);
    const engine = replayTrace(events, { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarter });
    expect(engine.cacheTtl).toEqual({ ttl: '1h', source: 'recording' });
    expect(engine.totals.cacheWrite1h).toBe(engine.totals.cacheWrite);
    const job = { trace: 't.jsonl', strategy: 'variable' as const, budget: 32_000, provider: 'anthropic' as const };
    expect(runReplayJob(job, events, quarter).cacheTtl).toEqual({ ttl: '1h', source: 'recording' });
    expect(runReplayJob({ ...job, ttl: '5m' }, events, quarter).cacheTtl).toEqual({ ttl: '5m', source: 'option' });
    // --model reprices: the same tokens at another model's list price.
    const repriced = runReplayJob({ ...job, strategy: 'full_history_baseline', model: 'claude-sonnet-4-6' }, events, quarter);
    expect(repriced.model).toBe('claude-sonnet-4-6');
    expect(repriced.totals.costUsd!.cacheWrite).toBeCloseTo((repriced.totals.cacheWrite * 6) / 1e6, 12);
  });
});
