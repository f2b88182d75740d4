import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../../engine/node/catalog/Catalog';
import { type EventPayload, StrataError, type StrataEvent } from '../../../../engine/contract';
import { Comparisons, COMPARISONS_KEPT, PROGRESS_INTERVAL_MS } from '../../../../engine/host/Comparisons';
import { importTraceIntoCatalog } from '../../../../engine/host/importTraceIntoCatalog';
import { manualClock } from '../../../../engine/ports/Clock';
import { manualScheduler } from '../../../../engine/ports/Scheduler';
import { compareRows } from '../../../../engine/traces/compare/compareTable';
import { runReplayJob, type ReplayJob, type ReplayJobResult, type RunReplayJobsOptions } from '../../../../engine/node/traces/replayWorker';
import { quarterTokenizer } from '../../../support/engineFixtures';
import { tempDir } from '../../../support/tempDir';
import { SYNTHETIC_TRACE, writeSyntheticTrace } from '../../../support/traceFixtures';

/** A batch the test finishes by hand. */
interface Batch {
  jobs: readonly ReplayJob[];
  options: RunReplayJobsOptions;
  resolve(results: ReplayJobResult[]): void;
}

/** What the worker would give, computed in this thread (a fast tokenizer: the figures need not be o200k's). */
const replayed = (jobs: readonly ReplayJob[]): ReplayJobResult[] => jobs.map((job) => ({ job, result: runReplayJob(job, job.events ?? [], quarterTokenizer), ms: 1 }));

describe('Comparisons', () => {
  let tmp: ReturnType<typeof tempDir>;
  let catalog: Catalog;
  let clock: ReturnType<typeof manualClock>;
  let scheduler: ReturnType<typeof manualScheduler>;
  let batches: Batch[];
  let progress: EventPayload<'comparison.progress'>[];
  let comparisons: Comparisons;
  let traceId: string;

  beforeEach(async () => {
    tmp = tempDir();
    catalog = Catalog.open(':memory:');
    clock = manualClock(Date.parse('2026-11-29T12:00:00Z'));
    scheduler = manualScheduler();
    batches = [];
    progress = [];
    comparisons = new Comparisons({
      catalog,
      clock,
      scheduler,
      emit: (e: StrataEvent) => {
        if (e.name === 'comparison.progress') progress.push(e.payload);
      },
      runJobs: (jobs, options = {}) => new Promise((resolve) => batches.push({ jobs, options, resolve })),
    });
    traceId = (await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir), clock.now())).trace.id;
  });
  afterEach(() => {
    comparisons.close();
    catalog.close();
    tmp.remove();
  });

  const settle = () => new Promise((r) => setImmediate(r));
  const refusal = (fn: () => unknown): StrataError => {
    try {
      fn();
    } catch (err) {
      if (err instanceof StrataError) return err;
      throw err;
    }
    throw new Error('expected a refusal');
  };

  it('[trace-compare] an unknown trace is not_found and starts nothing; a third running comparison is a conflict', () => {
    expect(refusal(() => comparisons.start({ traceIds: [traceId, 'tr_missing'], strategies: ['variable'], budget: 32_000 }))).toMatchObject({ code: 'not_found', message: expect.stringContaining('tr_missing') });
    expect(batches).toHaveLength(0);
    expect(refusal(() => comparisons.get('cmp-1')).code).toBe('not_found');
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    comparisons.start({ traceIds: [traceId], strategies: ['summary'], budget: 32_000 });
    expect(refusal(() => comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 })).code).toBe('conflict');
    expect(batches).toHaveLength(2);
  });

  it('[trace-compare] hands the stored events to the replays and reports compareRows figures and one series entry per step', async () => {
    const started = comparisons.start({ traceIds: [traceId], strategies: ['variable', 'full_history_baseline'], budget: 32_000, provider: 'openai' });
    expect(started).toMatchObject({ comparisonId: 'cmp-1', status: 'running', progress: { done: 0, total: 2 }, results: [], errors: [], provider: 'openai', finishedAt: null });
    const [batch] = batches as [Batch];
    expect(batch.jobs.map((j) => [j.trace, j.strategy, j.budget, j.provider])).toEqual([
      [traceId, 'variable', 32_000, 'openai'],
      [traceId, 'full_history_baseline', 32_000, 'openai'],
    ]);
    expect(batch.jobs[0]?.events).toEqual(catalog.traceEvents(traceId));
    const results = replayed(batch.jobs);
    batch.resolve(results);
    await settle();
    const done = comparisons.get('cmp-1');
    // The value handed out earlier is not changed behind the caller's back.
    expect(started.status).toBe('running');
    expect(done).toMatchObject({ status: 'finished', progress: { done: 2, total: 2 }, errors: [], finishedAt: clock.now() });
    expect(done.results.map((r) => [r.strategy, r.budget, r.series.length])).toEqual([
      ['variable', 32_000, SYNTHETIC_TRACE.steps],
      ['full_history_baseline', null, SYNTHETIC_TRACE.steps],
    ]);
    results.forEach((r, i) => {
      const row = compareRows([r.result!])[0]!;
      const t = r.result!.totals;
      expect(done.results[i]!.totals).toEqual({
        steps: row.steps,
        promptTokens: row.promptTokens,
        meanPromptTokens: row.meanPromptTokens,
        uncachedTokens: row.uncachedTokens,
        input: t.input,
        cacheRead: t.cacheRead,
        cacheWrite: t.cacheWrite,
        costUsd: t.costUsd,
        model: r.result!.model,
        priceNote: t.pricing.note,
        cacheTtl: r.result!.cacheTtl,
        window: r.result!.window,
        hitRate: row.hitRate,
        prefixReuse: row.prefixReuse,
        reuseBytes: { reused: t.reusedBytes, prompt: t.promptBytes - r.result!.steps[0]!.promptBytes },
        neededReferenceRecall: row.neededReferenceRecall,
        pooledReferenceRecall: row.pooledReferenceRecall,
        references: { needed: t.references, held: t.referencesHeld },
        rereadsForced: t.rereadsForced,
        orphans: row.orphans,
        invalid: row.invalid,
        refreshes: row.refreshes,
        overheadP50Ms: t.overheadP50Ms,
      });
      // The dollars are the row's (gpt-5's list price: the trace names no model, the OpenAI default prices it).
      expect(done.results[i]!.totals.costUsd?.prompt).toBe(row.promptUsd);
      expect(row.promptUsd).toBeGreaterThan(0);
      expect(done.results[i]!.series).toEqual(
        r.result!.steps.map((s) => ({ step: s.step, promptTokens: s.promptTokens, cacheRead: s.cacheRead, cacheWrite: s.cacheWrite, uncached: s.promptTokens - s.cacheRead, prefixReuse: s.prefixReuse, recall: s.neededReferenceRecall ?? null })),
      );
    });
  });

  it('[replay-ttl] [compare-money] passes the TTL and the model to price to every replay, and reports them and the notes', async () => {
    const started = comparisons.start({ traceIds: [traceId], strategies: ['variable', 'full_history_baseline'], budget: 32_000, ttl: '1h', model: 'claude-opus-4-6' });
    expect(started).toMatchObject({ ttl: '1h', model: 'claude-opus-4-6', notes: [] });
    const [batch] = batches as [Batch];
    expect(batch.jobs.map((j) => [j.ttl, j.model])).toEqual([
      ['1h', 'claude-opus-4-6'],
      ['1h', 'claude-opus-4-6'],
    ]);
    batch.resolve(replayed(batch.jobs));
    await settle();
    const done = comparisons.get('cmp-1');
    expect(done.results.map((r) => [r.totals.model, r.totals.cacheTtl])).toEqual([
      ['claude-opus-4-6', { ttl: '1h', source: 'option' }],
      ['claude-opus-4-6', { ttl: '1h', source: 'option' }],
    ]);
    expect(done.results.every((r) => r.totals.costUsd !== null && r.totals.priceNote.startsWith('claude-opus-4-6 (Claude Opus 4.5'))).toBe(true);
    const name = catalog.getTrace(traceId)!.name;
    expect(done.notes).toContain(`cache TTL of the breakpoints: 1h: the TTL option (${name})`);
    expect(done.notes.some((n) => n.startsWith('price (the model option): claude-opus-4-6 '))).toBe(true);
    // Without the options: each trace's own (the synthetic trace records no usage: default TTL, the default model).
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    expect(batches[1]!.jobs[0]).not.toHaveProperty('ttl');
    expect(batches[1]!.jobs[0]).not.toHaveProperty('model');
    expect(comparisons.get('cmp-2')).toMatchObject({ ttl: null, model: null });
  });

  it('[replay-window-default] [trace-compare] every replay is held against the window asked for, else the recorded model\'s, and each result and the notes say which', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'full_history_baseline'], budget: 32_000, window: 150_000 });
    const [batch] = batches as [Batch];
    expect(batch.jobs.map((j) => j.window)).toEqual([150_000, 150_000]);
    expect(comparisons.get('cmp-1')).toMatchObject({ window: 150_000 });
    batch.resolve(replayed(batch.jobs));
    await settle();
    const done = comparisons.get('cmp-1');
    expect(done.results.map((r) => r.totals.window)).toEqual([
      { tokens: 150_000, source: 'option', model: 'claude-sonnet-4-5', why: 'the window option' },
      { tokens: 150_000, source: 'option', model: 'claude-sonnet-4-5', why: 'the window option' },
    ]);
    const name = catalog.getTrace(traceId)!.name;
    expect(done.notes).toContain(`context window 150,000: the window option (${name})`);
    // Without one: the priced model's (the synthetic trace names none, so the default model's, said so).
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    expect(batches[1]!.jobs.map((j) => j.window)).toEqual(['model']);
    expect(comparisons.get('cmp-2')).toMatchObject({ window: null });
    batches[1]!.resolve(replayed(batches[1]!.jobs));
    await settle();
    expect(comparisons.get('cmp-2').results[0]?.totals.window).toMatchObject({ tokens: 200_000, source: 'table', model: 'claude-sonnet-4-5' });
    expect(comparisons.get('cmp-2').notes.some((n) => n.startsWith('context window 200,000: default model (the trace names none) claude-sonnet-4-5 (https://'))).toBe(true);
  });

  it('[trace-compare] failed replays are listed with why; a comparison whose replays all fail is failed', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'summary'], budget: 32_000 });
    const [batch] = batches as [Batch];
    batch.resolve([replayed(batch.jobs.slice(0, 1))[0]!, { job: batch.jobs[1]!, error: 'the replay worker failed: boom', ms: 0 }]);
    await settle();
    expect(comparisons.get('cmp-1')).toMatchObject({ status: 'finished', errors: [{ traceId, strategy: 'summary', error: 'the replay worker failed: boom' }] });
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    batches[1]!.resolve([{ job: batches[1]!.jobs[0]!, error: 'cancelled', ms: 0 }]);
    await settle();
    expect(comparisons.get('cmp-2')).toMatchObject({ status: 'failed', results: [], errors: [{ strategy: 'variable', error: 'cancelled' }] });
  });

  it('[trace-compare-progress] sends at most one progress per finished replay and per interval, and never loses the final status', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'full_history', 'summary', 'aggressive_refresh', 'role_optimized', 'full_history_baseline'], budget: 32_000 });
    const [batch] = batches as [Batch];
    for (let done = 1; done <= 6; done++) batch.options.onProgress?.({ done, total: 6, trace: traceId, strategy: 'variable', budget: 32_000 });
    // The first went at once; the rest of this burst waits for the next interval, newest first.
    expect(progress).toEqual([{ comparisonId: 'cmp-1', done: 1, total: 6, status: 'running' }]);
    scheduler.tick();
    expect(progress.at(-1)).toEqual({ comparisonId: 'cmp-1', done: 5, total: 6, status: 'running' });
    scheduler.tick();
    expect(progress).toHaveLength(2);
    expect(scheduler.active()).toBe(0);
    batch.resolve(replayed(batch.jobs));
    await settle();
    // Within the interval of the last one sent: it waits for the timer, then it is the last event.
    expect(progress).toHaveLength(2);
    scheduler.tick();
    expect(progress.at(-1)).toEqual({ comparisonId: 'cmp-1', done: 6, total: 6, status: 'finished' });
    expect(progress.length).toBeLessThanOrEqual(6);
    expect(scheduler.active()).toBe(0);
    // Once the interval has passed, a progress goes at once.
    clock.advance(PROGRESS_INTERVAL_MS);
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'summary'], budget: 32_000 });
    batches[1]!.options.onProgress?.({ done: 1, total: 2, trace: traceId, strategy: 'variable', budget: 32_000 });
    expect(progress.at(-1)).toEqual({ comparisonId: 'cmp-2', done: 1, total: 2, status: 'running' });
  });

  it(`[trace-compare-history] keeps the newest ${COMPARISONS_KEPT} in memory and reopens older ones from the catalog`, async () => {
    for (let i = 0; i < COMPARISONS_KEPT + 1; i++) {
      comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
      batches.at(-1)!.resolve([{ job: batches.at(-1)!.jobs[0]!, error: 'skipped', ms: 0 }]);
      await settle();
    }
    // The first left memory but not the history: reopening shows it as saved.
    expect(comparisons.get('cmp-1')).toMatchObject({ comparisonId: 'cmp-1', status: 'failed', errors: [{ error: 'skipped' }] });
    expect(comparisons.get(`cmp-${COMPARISONS_KEPT + 1}`).status).toBe('failed');
    expect(comparisons.list().map((c) => c.comparisonId)).toEqual(Array.from({ length: COMPARISONS_KEPT + 1 }, (_, i) => `cmp-${COMPARISONS_KEPT + 1 - i}`));
    expect(comparisons.list(2)).toHaveLength(2);
    expect(refusal(() => comparisons.get('cmp-99')).code).toBe('not_found');
  });

  it('[trace-compare-history] an ended comparison is saved whole and reopened by a host that starts later; new ids go on after it', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'full_history_baseline'], budget: 32_000 });
    const [batch] = batches as [Batch];
    batch.resolve(replayed(batch.jobs));
    await settle();
    const ended = comparisons.get('cmp-1');
    comparisons.close();
    const later = new Comparisons({ catalog, clock, scheduler, emit: () => {}, runJobs: (jobs, options = {}) => new Promise((resolve) => batches.push({ jobs, options, resolve })) });
    expect(later.get('cmp-1')).toEqual(ended);
    expect(later.list()).toEqual([
      { comparisonId: 'cmp-1', status: 'finished', traces: [{ traceId, name: catalog.getTrace(traceId)!.name, removed: false }], strategies: ['variable', 'full_history_baseline'], budgets: [32_000], provider: 'anthropic', model: null, startedAt: ended.startedAt, finishedAt: ended.finishedAt, progress: { done: 2, total: 2 } },
    ]);
    expect(later.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 }).comparisonId).toBe('cmp-2');
    later.close();
  });

  it('[trace-compare] replays every engine strategy at each budget and the baselines once', async () => {
    const started = comparisons.start({ traceIds: [traceId], strategies: ['variable', 'summary', 'full_history_baseline'], budgets: [16_000, 64_000] });
    expect(started).toMatchObject({ budget: 16_000, budgets: [16_000, 64_000], progress: { done: 0, total: 5 } });
    const [batch] = batches as [Batch];
    expect(batch.jobs.map((j) => [j.strategy, j.budget])).toEqual([
      ['variable', 16_000],
      ['variable', 64_000],
      ['summary', 16_000],
      ['summary', 64_000],
      ['full_history_baseline', 16_000],
    ]);
    batch.resolve(replayed(batch.jobs));
    await settle();
    expect(comparisons.get('cmp-1').results.map((r) => [r.strategy, r.budget])).toEqual([
      ['variable', 16_000],
      ['variable', 64_000],
      ['summary', 16_000],
      ['summary', 64_000],
      ['full_history_baseline', null],
    ]);
  });

  it('[trace-compare-cancel] cancelling stops the replays, keeps the finished ones and ends cancelled; an ended one cannot be cancelled', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable', 'summary'], budget: 32_000 });
    const [batch] = batches as [Batch];
    const first = replayed(batch.jobs.slice(0, 1))[0]!;
    // The fake worker pool answers an abort as runReplayJobs does: the unfinished jobs are `cancelled`.
    batch.options.signal?.addEventListener('abort', () => batch.resolve([first, { job: batch.jobs[1]!, error: 'cancelled', ms: 0 }]));
    const cancelled = await comparisons.cancel('cmp-1');
    expect(batch.options.signal?.aborted).toBe(true);
    expect(cancelled).toMatchObject({ status: 'cancelled', errors: [], progress: { done: 1, total: 2 } });
    expect(cancelled.results.map((r) => r.strategy)).toEqual(['variable']);
    scheduler.tick();
    expect(progress.at(-1)).toEqual({ comparisonId: 'cmp-1', done: 1, total: 2, status: 'cancelled' });
    expect(comparisons.list()[0]).toMatchObject({ comparisonId: 'cmp-1', status: 'cancelled' });
    await expect(comparisons.cancel('cmp-1')).rejects.toMatchObject({ code: 'conflict' });
    await expect(comparisons.cancel('cmp-9')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('[trace-remove] a comparison whose trace was removed keeps its saved result and says the trace is gone', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    expect(comparisons.replaying(traceId)).toBe(true);
    const [batch] = batches as [Batch];
    batch.resolve(replayed(batch.jobs));
    await settle();
    expect(comparisons.replaying(traceId)).toBe(false);
    const name = catalog.getTrace(traceId)!.name;
    expect(catalog.deleteTrace(traceId)).toBe(true);
    expect(catalog.getTrace(traceId)).toBeUndefined();
    const after = comparisons.get('cmp-1');
    expect(after.traces).toEqual([{ traceId, name, removed: true }]);
    expect(after.results).toHaveLength(1);
    expect(comparisons.list()[0]!.traces).toEqual([{ traceId, name, removed: true }]);
    expect(catalog.deleteTrace(traceId)).toBe(false);
  });

  it('[trace-compare] closing terminates the running replays and announces nothing more', async () => {
    comparisons.start({ traceIds: [traceId], strategies: ['variable'], budget: 32_000 });
    const [batch] = batches as [Batch];
    comparisons.close();
    expect(batch.options.signal?.aborted).toBe(true);
    const before = progress.length;
    batch.resolve([{ job: batch.jobs[0]!, error: 'cancelled', ms: 0 }]);
    await settle();
    scheduler.tick();
    expect(progress).toHaveLength(before);
  });
});
