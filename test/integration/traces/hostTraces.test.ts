/**
 * Traces end to end through the host's contract: a made-up session written by the test is
 * imported, compared under two strategies in worker threads while the host keeps answering, and
 * read back with totals and per-step series; bad arguments are refused before anything starts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandName, ComparisonDto, StrataEvent, TraceDto } from '../../../engine/contract';
import { compareRows } from '../../../engine/traces/compare/compareTable';
import { runReplayJob } from '../../../engine/node/traces/replayWorker';
import { dumpCatalog } from '../../support/catalogDump';
import { madeUpSession } from '../../support/liveSessionFixture';
import { useTraceHost } from '../../support/traceHost';
import { SYNTHETIC_TRACE, writeSyntheticTrace, writeTruncatedTrace } from '../../support/traceFixtures';

describe('traces and comparisons through the host', () => {
  const t = useTraceHost(['trace.imported', 'trace.removed', 'comparison.progress']);
  const value = async <T,>(name: CommandName, args: unknown): Promise<T> => {
    const envelope = await t.host.connect(() => {}).call(name, args);
    if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code} ${envelope.error.message}`);
    return envelope.value as T;
  };
  const error = async (name: CommandName, args: unknown) => {
    const envelope = await t.host.connect(() => {}).call(name, args);
    if (envelope.ok) throw new Error(`${name} succeeded: ${JSON.stringify(envelope.value)}`);
    return envelope.error;
  };

  it('[trace-import-idempotent] [trace-catalog] importTrace stores and announces a trace once; listTraces lists it', async () => {
    const conn = await t.connect();
    const file = writeSyntheticTrace(t.tmp.dir);
    const first = await conn.call('importTrace', { path: file });
    expect(first).toMatchObject({ ok: true, value: { alreadyImported: false, trace: { name: 'session.json', format: SYNTHETIC_TRACE.format, steps: SYNTHETIC_TRACE.steps, toolCalls: SYNTHETIC_TRACE.toolCalls } } });
    const trace = (first as { value: { trace: TraceDto } }).value.trace;
    expect(t.events).toEqual([{ name: 'trace.imported', payload: { trace } }]);
    expect(await conn.call('importTrace', { path: file })).toEqual({ ok: true, value: { trace, alreadyImported: true } });
    expect(t.events).toHaveLength(1);
    expect(await value('listTraces', {})).toEqual({ traces: [trace] });
  });

  it('[trace-import-atomic] a malformed file is invalid_args naming its line, a missing one not_found; nothing is written or announced', async () => {
    await t.connect();
    const before = dumpCatalog(t.catalogPath);
    const truncated = writeTruncatedTrace(t.tmp.dir);
    expect(await error('importTrace', { path: truncated })).toMatchObject({ code: 'invalid_args', message: expect.stringContaining(`${truncated}:9:`) });
    expect(await error('importTrace', { path: join(t.tmp.dir, 'gone.jsonl') })).toMatchObject({ code: 'not_found' });
    expect(await error('importTrace', { path: '' })).toMatchObject({ code: 'invalid_args', issues: [{ path: 'path' }] });
    expect(dumpCatalog(t.catalogPath)).toEqual(before);
    expect(t.events).toEqual([]);
  });

  it.each([
    ['no trace', { traceIds: [], strategies: ['variable'], budget: 32_000 }, 'traceIds'],
    ['a repeated trace', { traceIds: ['tr_a', 'tr_a'], strategies: ['variable'], budget: 32_000 }, 'traceIds'],
    ['an unknown strategy', { traceIds: ['tr_a'], strategies: ['magic'], budget: 32_000 }, 'strategies.0'],
    ['a repeated strategy', { traceIds: ['tr_a'], strategies: ['variable', 'variable'], budget: 32_000 }, 'strategies'],
    ['no strategy', { traceIds: ['tr_a'], strategies: [], budget: 32_000 }, 'strategies'],
    ['a budget too small', { traceIds: ['tr_a'], strategies: ['variable'], budget: 999 }, 'budget'],
    ['a budget too large', { traceIds: ['tr_a'], strategies: ['variable'], budget: 2_000_001 }, 'budget'],
    ['a fractional budget', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000.5 }, 'budget'],
    ['an unknown provider', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, provider: 'gemini' }, 'provider'],
    ['a window too small', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, window: 999 }, 'window'],
    ['a window too large', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, window: 10_000_001 }, 'window'],
    ['a fractional window', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, window: 200_000.5 }, 'window'],
    ['a window as text', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, window: '200000' }, 'window'],
    ['an unknown key', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, limit: 1 }, ''],
    ['no budget', { traceIds: ['tr_a'], strategies: ['variable'] }, 'budgets'],
    ['both a budget and budgets', { traceIds: ['tr_a'], strategies: ['variable'], budget: 32_000, budgets: [64_000] }, 'budgets'],
    ['too many budgets', { traceIds: ['tr_a'], strategies: ['variable'], budgets: [2000, 3000, 4000, 5000, 6000, 7000, 8000] }, 'budgets'],
    ['a repeated budget', { traceIds: ['tr_a'], strategies: ['variable'], budgets: [32_000, 32_000] }, 'budgets'],
    ['a budget in the list too small', { traceIds: ['tr_a'], strategies: ['variable'], budgets: [32_000, 999] }, 'budgets.1'],
  ])('[trace-compare] startComparison with %s is invalid_args and starts nothing', async (_what, args, path) => {
    const refused = await error('startComparison', args);
    expect(refused.code).toBe('invalid_args');
    expect(refused.issues?.map((i) => i.path)).toContain(path);
    expect(await error('getComparison', { comparisonId: 'cmp-1' })).toMatchObject({ code: 'not_found' });
  });

  it('[trace-compare] an unknown trace id is not_found and starts nothing', async () => {
    const { trace } = await value<{ trace: TraceDto }>('importTrace', { path: writeSyntheticTrace(t.tmp.dir) });
    expect(await error('startComparison', { traceIds: [trace.id, 'tr_0000000000000000'], strategies: ['variable'], budget: 32_000 })).toMatchObject({ code: 'not_found', message: expect.stringContaining('tr_0000000000000000') });
    expect(await error('getComparison', { comparisonId: 'cmp-1' })).toMatchObject({ code: 'not_found' });
  });

  it('[trace-remove] removeTrace deletes the catalog row and announces it; an unknown id is not_found; a trace a running comparison replays is a conflict', async () => {
    await t.connect();
    const { trace } = await value<{ trace: TraceDto }>('importTrace', { path: writeSyntheticTrace(t.tmp.dir) });
    const { comparison } = await value<{ comparison: ComparisonDto }>('startComparison', { traceIds: [trace.id], strategies: ['variable'], budget: 32_000 });
    expect(await error('removeTrace', { traceId: trace.id })).toMatchObject({ code: 'conflict', message: expect.stringContaining('cancel it') });
    await value('cancelComparison', { comparisonId: comparison.comparisonId });
    expect(await value('removeTrace', { traceId: trace.id })).toEqual({ traceId: trace.id });
    expect(await value('listTraces', {})).toEqual({ traces: [] });
    expect(t.events.filter((e) => e.name === 'trace.removed')).toEqual([{ name: 'trace.removed', payload: { traceId: trace.id } }]);
    expect(await error('removeTrace', { traceId: trace.id })).toMatchObject({ code: 'not_found' });
    // The comparison stays in the history, saying its trace is gone.
    const { comparison: saved } = await value<{ comparison: ComparisonDto }>('getComparison', { comparisonId: comparison.comparisonId });
    expect(saved).toMatchObject({ status: 'cancelled', traces: [{ traceId: trace.id, name: trace.name, removed: true }] });
    expect(await value('listComparisons', {})).toMatchObject({ comparisons: [{ comparisonId: comparison.comparisonId, status: 'cancelled' }] });
  });

  const finished = async (comparisonId: string): Promise<ComparisonDto> => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const { comparison } = await value<{ comparison: ComparisonDto }>('getComparison', { comparisonId });
      if (comparison.status !== 'running' || Date.now() > deadline) return comparison;
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('[replay-truth-reported] a comparison reports what the recording agent was billed, and with the baseline how close the cache model comes', async () => {
    await t.connect();
    const lines = madeUpSession(12);
    const file = join(t.tmp.dir, 'made-up.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // The recorded usage of every agent's calls, read straight from the file (a sidechain's calls are billed too).
    const main = lines.map((l) => JSON.parse(l) as { type: string; isSidechain?: boolean; message?: { usage?: Record<string, number> } }).filter((l) => l.type === 'assistant');
    const u = (k: string) => main.reduce((n, l) => n + (l.message?.usage?.[k] ?? 0), 0);
    const prompt = u('input_tokens') + u('cache_read_input_tokens') + u('cache_creation_input_tokens');

    const { trace } = await value<{ trace: TraceDto }>('importTrace', { path: file });
    const started = await value<{ comparison: ComparisonDto }>('startComparison', { traceIds: [trace.id], strategies: ['variable', 'as_recorded'], budget: 32_000 });
    expect(started.comparison.recorded).toEqual([]);
    const c = await finished(started.comparison.comparisonId);
    expect(c.status).toBe('finished');
    expect(c.recorded).toHaveLength(1);
    const r = c.recorded[0]!;
    expect(r).toMatchObject({ traceId: trace.id, model: 'claude-made-up-1', calls: main.length, promptTokens: prompt, uncachedTokens: u('input_tokens') + u('cache_creation_input_tokens'), cacheWriteTokens: u('cache_creation_input_tokens'), writesMissing: false });
    expect(r.hitRate).toBeCloseTo(u('cache_read_input_tokens') / prompt, 12);
    // The as-recorded baseline's own figures over the same steps (every recorded step is a replayed step here).
    const baseline = c.results.find((x) => x.strategy === 'as_recorded')!;
    const modelled = baseline.series.reduce((n, s) => n + s.promptTokens, 0);
    const read = baseline.series.reduce((n, s) => n + s.cacheRead, 0);
    expect(r.asRecorded).toMatchObject({ matched: main.length, promptTokens: modelled });
    expect(r.fullHistory).toBeNull();
    expect(r.prefix).toMatchObject({ estimated: true });
    expect(r.asRecorded!.hitRate).toBeCloseTo(read / modelled, 12);
    expect(r.asRecorded!.promptError).toBeCloseTo((modelled - prompt) / prompt, 12);
    expect(r.asRecorded!.cacheReadError).toBeCloseTo((read - u('cache_read_input_tokens')) / u('cache_read_input_tokens'), 12);

    // Without the baseline the recorded figures are still there, the model's are not; a trace without usage has no row.
    const synthetic = (await value<{ trace: TraceDto }>('importTrace', { path: writeSyntheticTrace(t.tmp.dir) })).trace;
    const second = await value<{ comparison: ComparisonDto }>('startComparison', { traceIds: [trace.id, synthetic.id], strategies: ['variable'], budget: 32_000 });
    const d = await finished(second.comparison.comparisonId);
    expect(d.recorded).toEqual([{ ...r, asRecorded: null }]);
  }, 120_000);

  it('[trace-compare] [trace-compare-progress] [replay-worker] compares two strategies in worker threads, with progress, while the host keeps answering', async () => {
    const conn = await t.connect();
    const { trace } = await value<{ trace: TraceDto }>('importTrace', { path: writeSyntheticTrace(t.tmp.dir) });
    const started = await conn.call('startComparison', { traceIds: [trace.id], strategies: ['variable', 'full_history_baseline'], budget: 32_000 });
    expect(started).toMatchObject({ ok: true, value: { comparison: { comparisonId: 'cmp-1', status: 'running', progress: { done: 0, total: 2 }, budget: 32_000, provider: 'anthropic' } } });

    // The replays run in workers: this thread (the host's) keeps firing timers and answering calls.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const deadline = Date.now() + 90_000;
    let comparison: ComparisonDto;
    for (;;) {
      comparison = (await value<{ comparison: ComparisonDto }>('getComparison', { comparisonId: 'cmp-1' })).comparison;
      if (comparison.status !== 'running' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(await value('health', {})).toMatchObject({ ok: true });

    expect(comparison).toMatchObject({ status: 'finished', progress: { done: 2, total: 2 }, errors: [], traceIds: [trace.id], strategies: ['variable', 'full_history_baseline'] });
    expect(comparison.results.map((r) => [r.traceId, r.strategy, r.budget])).toEqual([
      [trace.id, 'variable', 32_000],
      [trace.id, 'full_history_baseline', null],
    ]);
    const stored = t.host.catalog.traceEvents(trace.id)!;
    for (const r of comparison.results) {
      expect(r.series).toHaveLength(trace.steps);
      expect(r.totals.steps).toBe(trace.steps);
      expect(r.series.reduce((n, s) => n + s.promptTokens, 0)).toBe(r.totals.promptTokens);
      expect(r.series.every((s) => s.uncached === s.promptTokens - s.cacheRead && (s.recall === null || (s.recall >= 0 && s.recall <= 1)))).toBe(true);
      // The figures are the table's, for the same replay made in this thread (timings aside).
      const inThread = runReplayJob({ trace: trace.id, strategy: r.strategy, budget: 32_000, provider: 'anthropic' }, stored);
      const row = compareRows([inThread])[0]!;
      const { overheadP50Ms, ...totals } = r.totals;
      expect(totals).toMatchObject({
        steps: row.steps,
        promptTokens: row.promptTokens,
        meanPromptTokens: row.meanPromptTokens,
        uncachedTokens: row.uncachedTokens,
        hitRate: row.hitRate,
        prefixReuse: row.prefixReuse,
        neededReferenceRecall: row.neededReferenceRecall,
        pooledReferenceRecall: row.pooledReferenceRecall,
        references: { needed: row.references, held: row.referencesHeld },
        rereadsForced: row.rereadsForced,
        orphans: row.orphans,
        invalid: row.invalid,
        refreshes: row.refreshes,
        costUsd: inThread.totals.costUsd,
        model: inThread.model,
        priceNote: inThread.totals.pricing.note,
        cacheTtl: inThread.cacheTtl,
      });
      expect(totals.costUsd?.prompt ?? null).toBe(row.promptUsd);
      expect(overheadP50Ms).toBeGreaterThanOrEqual(0);
    }
    expect(comparison.results.find((r) => r.strategy === 'variable')!.totals.orphans).toBe(0);
    // What the dollars and the TTLs rest on, with the trace named as imported.
    expect(comparison.notes[0]).toMatch(/^USD: US dollars at list prices/);
    expect(comparison.notes).toContainEqual(expect.stringMatching(new RegExp(`^cache TTL of the breakpoints: 5m: default \\(${trace.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`)));

    // The final progress may wait out the pacing interval.
    const progressOf = () => t.events.flatMap((e) => (e.name === 'comparison.progress' ? [e.payload] : []));
    while (progressOf().at(-1)?.status !== 'finished' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const progress = progressOf();
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(2);
    expect(progress.at(-1)).toEqual({ comparisonId: 'cmp-1', done: 2, total: 2, status: 'finished' });
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
  }, 120_000);
});
