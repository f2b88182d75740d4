import type { z } from 'zod';
import { type ComparisonDto, type ComparisonResultDto, type ComparisonStrategy, type EventPayload, type StartComparisonArgsSchema, StrataError, type StrataEvent } from '../contract';
import type { Catalog } from '../node/catalog/Catalog';
import type { Clock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { StrategyName } from '../strategies/Strategy';
import { compareNotes } from '../traces/compare/compareNotes';
import { compareRows } from '../traces/compare/compareTable';
import { recordedRows } from '../traces/compare/recordedTable';
import type { BaselineName, ReplayResult } from '../traces/replay/ReplayTypes';
import { runReplayJobs, type ReplayJob, type ReplayJobResult } from '../node/traces/replayWorker';

/** Comparisons kept in memory (the newest; they are recomputable from the catalog's traces). */
export const COMPARISONS_KEPT = 20;
/** Comparisons replaying at once; each has its own worker threads. */
const COMPARISONS_RUNNING = 2;
/** At most one `comparison.progress` per this many milliseconds over all comparisons (20 a second). */
export const PROGRESS_INTERVAL_MS = 50;
/** Worker threads per comparison (the jobs of one trace share a worker). */
const WORKERS = 2;

// Compile-time check: the contract's strategy names are exactly the engine's plus the baselines.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const strategiesMatch: Same<ComparisonStrategy, StrategyName | BaselineName> = true;

export interface ComparisonsDeps {
  catalog: Catalog;
  clock: Clock;
  scheduler: Scheduler;
  emit(event: StrataEvent): void;
  /** The replay worker's own build entry, in a bundled host (see `RunReplayJobsOptions.workerUrl`). */
  workerUrl?: URL | undefined;
  /** Runs the replays (default `runReplayJobs`; tests pass one they drive). */
  runJobs?: typeof runReplayJobs;
}

interface Running {
  dto: ComparisonDto;
  abort: AbortController;
}

type Progress = EventPayload<'comparison.progress'>;

/**
 * The host's comparisons (`[trace-compare]`): each replays imported traces under several strategies
 * at one budget in worker threads (`runReplayJobs`), never in the host's thread, so the host keeps
 * answering while they run. This holds in every host: under tsx the worker starts from the replay
 * module's source; a bundled host (web, CLI, Electron main) passes the worker's own build entry
 * (`out/main/replayWorker.js`), since its single bundle cannot be a worker. DTOs are replaced, never
 * mutated, so a value handed out stays as it was.
 */
export class Comparisons {
  readonly #all = new Map<string, Running>();
  readonly #progress: ProgressThrottle;
  #next = 1;
  #closed = false;

  constructor(private readonly deps: ComparisonsDeps) {
    this.#progress = new ProgressThrottle(deps.clock, deps.scheduler, (payload) => deps.emit({ name: 'comparison.progress', payload }));
  }

  /** Validate, then start replaying; `not_found` for an unknown trace, `conflict` when too many run. Nothing starts on a refusal. */
  start(args: z.output<typeof StartComparisonArgsSchema>): ComparisonDto {
    const unknown = args.traceIds.filter((id) => !this.deps.catalog.getTrace(id));
    if (unknown.length > 0) throw new StrataError('not_found', `No imported trace ${unknown.join(', ')}; import it first (importTrace or strata import).`);
    const running = [...this.#all.values()].filter((c) => c.dto.status === 'running').length;
    if (running >= COMPARISONS_RUNNING) throw new StrataError('conflict', `${running} comparisons are running; wait for one to finish.`);
    const provider = args.provider ?? 'anthropic';
    const pricing = { ...(args.model ? { model: args.model } : {}), ...(args.ttl ? { ttl: args.ttl } : {}), window: args.window ?? ('model' as const) };
    const jobs: ReplayJob[] = args.traceIds.flatMap((trace) => {
      const events = this.deps.catalog.traceEvents(trace) ?? [];
      return args.strategies.map((strategy) => ({ trace, events, strategy, budget: args.budget, provider, ...pricing, recorded: true }));
    });
    const comparisonId = `cmp-${this.#next++}`;
    const c: Running = {
      dto: {
        comparisonId,
        status: 'running',
        traceIds: [...args.traceIds],
        strategies: [...args.strategies],
        budget: args.budget,
        provider,
        ttl: args.ttl ?? null,
        model: args.model ?? null,
        window: args.window ?? null,
        startedAt: this.deps.clock.now(),
        finishedAt: null,
        progress: { done: 0, total: jobs.length },
        results: [],
        errors: [],
        recorded: [],
        notes: [],
      },
      abort: new AbortController(),
    };
    this.#all.set(comparisonId, c);
    this.#evict();
    (this.deps.runJobs ?? runReplayJobs)(jobs, {
      workers: WORKERS,
      workerUrl: this.deps.workerUrl,
      signal: c.abort.signal,
      onProgress: (p) => {
        if (this.#closed) return;
        c.dto = { ...c.dto, progress: { done: p.done, total: p.total } };
        // The last replay's progress is the final event, sent with the final status.
        if (p.done < p.total) this.#progress.push({ comparisonId, done: p.done, total: p.total, status: 'running' });
      },
    }).then(
      (done) => this.#finish(c, done),
      (err: unknown) => this.#finish(c, jobs.map((job) => ({ job, error: err instanceof Error ? err.message : String(err), ms: 0 }))),
    );
    return c.dto;
  }

  get(comparisonId: string): ComparisonDto {
    const c = this.#all.get(comparisonId);
    if (!c) throw new StrataError('not_found', `No comparison "${comparisonId}" (the newest ${COMPARISONS_KEPT} are kept; start it again).`);
    return c.dto;
  }

  /** Terminate running replays and stop announcing. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const c of this.#all.values()) c.abort.abort();
    this.#progress.close();
  }

  #finish(c: Running, done: readonly ReplayJobResult[]): void {
    if (this.#closed) return;
    const results: ComparisonResultDto[] = [];
    const errors: ComparisonDto['errors'] = [];
    for (const d of done) {
      if (d.result) results.push(toResultDto(d.job.trace, d.result));
      else errors.push({ traceId: d.job.trace, strategy: d.job.strategy, error: d.error ?? 'unknown error' });
    }
    const status = results.length > 0 ? 'finished' : 'failed';
    const total = c.dto.progress.total;
    const recorded = recordedRows(
      done.flatMap((d) => (d.result ? [{ trace: d.job.trace, result: d.result }] : [])),
      { total: false },
    ).map(({ trace, asRecorded, fullHistory, ...r }) => ({
      traceId: trace,
      ...r,
      asRecorded: asRecorded && { ...asRecorded, provider: asRecorded.provider ?? c.dto.provider },
      fullHistory: fullHistory && { ...fullHistory, provider: fullHistory.provider ?? c.dto.provider },
    }));
    const name = (id: string) => this.deps.catalog.getTrace(id)?.name ?? id;
    const named = done.flatMap((d) => (d.result ? [{ trace: name(d.job.trace), result: d.result }] : []));
    const notes = compareNotes(named, { ttl: 'the TTL option', model: 'the model option', window: 'the window option' });
    c.dto = { ...c.dto, status, finishedAt: this.deps.clock.now(), progress: { done: total, total }, results, errors, recorded, notes };
    this.#progress.push({ comparisonId: c.dto.comparisonId, done: total, total, status });
  }

  /** Forget the oldest finished comparisons beyond the kept number (running ones stay). */
  #evict(): void {
    for (const [id, c] of this.#all) {
      if (this.#all.size <= COMPARISONS_KEPT) return;
      if (c.dto.status !== 'running') this.#all.delete(id);
    }
  }
}

/** One replay as the contract shows it: `compareRows`'s figures for it, and its per-step series. */
function toResultDto(traceId: string, r: ReplayResult): ComparisonResultDto {
  // One result makes exactly one row.
  const row = compareRows([r])[0]!;
  return {
    traceId,
    strategy: r.strategy,
    budget: r.budget,
    totals: {
      steps: row.steps,
      promptTokens: row.promptTokens,
      meanPromptTokens: row.meanPromptTokens,
      uncachedTokens: row.uncachedTokens,
      input: r.totals.input,
      cacheRead: r.totals.cacheRead,
      cacheWrite: r.totals.cacheWrite,
      costUsd: r.totals.costUsd,
      model: r.model,
      priceNote: r.totals.pricing.note,
      cacheTtl: r.cacheTtl,
      window: r.window ?? null,
      hitRate: row.hitRate,
      prefixReuse: row.prefixReuse,
      reuseBytes: { reused: r.totals.reusedBytes, prompt: r.totals.promptBytes - (r.steps[0]?.promptBytes ?? 0) },
      neededReferenceRecall: row.neededReferenceRecall,
      pooledReferenceRecall: row.pooledReferenceRecall,
      references: { needed: row.references, held: row.referencesHeld },
      rereadsForced: row.rereadsForced,
      orphans: row.orphans,
      invalid: row.invalid,
      refreshes: row.refreshes,
      overheadP50Ms: r.totals.overheadP50Ms,
    },
    series: r.steps.map((s) => ({
      step: s.step,
      promptTokens: s.promptTokens,
      cacheRead: s.cacheRead,
      cacheWrite: s.cacheWrite,
      uncached: s.promptTokens - s.cacheRead,
      prefixReuse: s.prefixReuse,
      recall: s.neededReferenceRecall ?? null,
    })),
  };
}

/**
 * Paces `comparison.progress` (`[trace-compare-progress]`): one event per {@link PROGRESS_INTERVAL_MS}
 * at most over all comparisons; while one waits, a newer progress of the same comparison replaces
 * it, so a final status is never lost and a fast batch of replays does not flood the views.
 */
class ProgressThrottle {
  readonly #waiting = new Map<string, Progress>();
  #last = -Infinity;
  #stop: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    private readonly emit: (p: Progress) => void,
  ) {}

  push(p: Progress): void {
    this.#waiting.set(p.comparisonId, p);
    if (!this.#stop && this.clock.now() - this.#last >= PROGRESS_INTERVAL_MS) this.#send();
    else this.#stop ??= this.scheduler.every(PROGRESS_INTERVAL_MS, () => this.#send());
  }

  #send(): void {
    const next = this.#waiting.entries().next();
    if (!next.done) {
      const [id, p] = next.value;
      this.#waiting.delete(id);
      this.#last = this.clock.now();
      this.emit(p);
    }
    if (this.#waiting.size === 0) {
      this.#stop?.();
      this.#stop = undefined;
    }
  }

  close(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#waiting.clear();
  }
}
