import type { z } from 'zod';
import { type ComparisonDto, type ComparisonResultDto, type ComparisonStrategy, type ComparisonSummaryDto, type EventPayload, type StartComparisonArgsSchema, StrataError, type StrataEvent } from '../contract';
import type { Catalog } from '../node/catalog/Catalog';
import type { Clock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { StrategyName } from '../strategies/Strategy';
import { compareNotes } from '../traces/compare/compareNotes';
import { compareRows } from '../traces/compare/compareTable';
import { recordedRows } from '../traces/compare/recordedTable';
import type { BaselineName, ReplayResult } from '../traces/replay/ReplayTypes';
import { runReplayJobs, type ReplayJob, type ReplayJobResult } from '../node/traces/replayWorker';

/** Comparisons kept in memory (the newest); every ended one is also saved in the catalog's history. */
export const COMPARISONS_KEPT = 20;
/** Comparisons `list` names when the caller sets no limit. */
const COMPARISONS_LISTED = 50;
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
  seq: number;
  abort: AbortController;
  /** Set by `cancel`: the replays stopped on purpose, not failed. */
  cancelled: boolean;
  /** Settles once the comparison has ended and its DTO is final. */
  ended: Promise<void>;
}

type Progress = EventPayload<'comparison.progress'>;

/**
 * The host's comparisons (`[trace-compare]`): each replays imported traces under several strategies
 * at one or more budgets in worker threads (`runReplayJobs`), never in the host's thread, so the
 * host keeps answering while they run. This holds in every host: under tsx the worker starts from
 * the replay module's source; a bundled host (web, CLI, Electron main) passes the worker's own build
 * entry (`out/main/replayWorker.js`), since its single bundle cannot be a worker. An ended
 * comparison is saved whole in the catalog (`[trace-compare-history]`), so it can be listed and
 * reopened after the host restarts; a running one can be cancelled (`[trace-compare-cancel]`).
 * DTOs are replaced, never mutated, so a value handed out stays as it was.
 */
export class Comparisons {
  readonly #all = new Map<string, Running>();
  readonly #progress: ProgressThrottle;
  #next = 1;
  #closed = false;

  constructor(private readonly deps: ComparisonsDeps) {
    // Ids go on from the saved history, so a new comparison never takes a saved one's id.
    this.#next = deps.catalog.lastComparisonSeq() + 1;
    this.#progress = new ProgressThrottle(deps.clock, deps.scheduler, (payload) => deps.emit({ name: 'comparison.progress', payload }));
  }

  /** Validate, then start replaying; `not_found` for an unknown trace, `conflict` when too many run. Nothing starts on a refusal. */
  start(args: z.output<typeof StartComparisonArgsSchema>): ComparisonDto {
    const unknown = args.traceIds.filter((id) => !this.deps.catalog.getTrace(id));
    if (unknown.length > 0) throw new StrataError('not_found', `No imported trace ${unknown.join(', ')}; import it first (importTrace or strata import).`);
    const running = [...this.#all.values()].filter((c) => c.dto.status === 'running').length;
    if (running >= COMPARISONS_RUNNING) throw new StrataError('conflict', `${running} comparisons are running; wait for one to finish.`);
    const provider = args.provider ?? 'anthropic';
    const budgets = args.budgets ?? [args.budget!];
    const pricing = { ...(args.model ? { model: args.model } : {}), ...(args.ttl ? { ttl: args.ttl } : {}), window: args.window ?? ('model' as const) };
    const jobs: ReplayJob[] = args.traceIds.flatMap((trace) => {
      const events = this.deps.catalog.traceEvents(trace) ?? [];
      // The baselines have no budget: they replay once.
      return args.strategies.flatMap((strategy) => (isBaseline(strategy) ? budgets.slice(0, 1) : budgets).map((budget) => ({ trace, events, strategy, budget, provider, ...pricing, recorded: true })));
    });
    const seq = this.#next++;
    const comparisonId = `cmp-${seq}`;
    let ended!: () => void;
    const c: Running = {
      dto: {
        comparisonId,
        status: 'running',
        traceIds: [...args.traceIds],
        traces: args.traceIds.map((traceId) => ({ traceId, name: this.deps.catalog.getTrace(traceId)?.name ?? traceId, removed: false })),
        strategies: [...args.strategies],
        budget: budgets[0]!,
        budgets: [...budgets],
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
      seq,
      abort: new AbortController(),
      cancelled: false,
      ended: new Promise<void>((resolve) => (ended = resolve)),
    };
    this.#all.set(comparisonId, c);
    this.#evict();
    (this.deps.runJobs ?? runReplayJobs)(jobs, {
      workers: WORKERS,
      workerUrl: this.deps.workerUrl,
      signal: c.abort.signal,
      onProgress: (p) => {
        if (this.#closed || c.cancelled) return;
        c.dto = { ...c.dto, progress: { done: p.done, total: p.total } };
        // The last replay's progress is the final event, sent with the final status.
        if (p.done < p.total) this.#progress.push({ comparisonId, done: p.done, total: p.total, status: 'running' });
      },
    })
      .then(
        (done) => this.#finish(c, done),
        (err: unknown) => this.#finish(c, jobs.map((job) => ({ job, error: err instanceof Error ? err.message : String(err), ms: 0 }))),
      )
      .finally(ended);
    return c.dto;
  }

  /** A comparison in memory, else as saved in the catalog; each trace says whether it has been removed since. */
  get(comparisonId: string): ComparisonDto {
    const dto = this.#all.get(comparisonId)?.dto ?? (this.deps.catalog.savedComparison(comparisonId) as ComparisonDto | undefined);
    if (!dto) throw new StrataError('not_found', `No comparison "${comparisonId}" in this workspace's history.`);
    return this.#withRemoved(dto);
  }

  /** The running comparisons and the saved history, newest first, at most `limit`. */
  list(limit = COMPARISONS_LISTED): ComparisonSummaryDto[] {
    const saved = this.deps.catalog.savedComparisons(limit) as ComparisonSummaryDto[];
    const live = [...this.#all.values()].filter((c) => c.dto.status === 'running').map((c) => summaryOf(c.dto));
    const seen = new Set(live.map((c) => c.comparisonId));
    return [...live, ...saved.filter((c) => !seen.has(c.comparisonId))]
      .sort((a, b) => seqOf(b.comparisonId) - seqOf(a.comparisonId))
      .slice(0, limit)
      .map((c) => ({ ...c, traces: this.#removedOf(c.traces) }));
  }

  /**
   * Stop a running comparison (`[trace-compare-cancel]`): its workers are terminated, the replays
   * that had finished keep their results, and it ends `cancelled` (and is saved so). `not_found`
   * for an unknown id, `conflict` for one that has already ended.
   */
  async cancel(comparisonId: string): Promise<ComparisonDto> {
    const c = this.#all.get(comparisonId);
    if (!c) {
      this.get(comparisonId);
      throw new StrataError('conflict', `Comparison "${comparisonId}" has already ended; there is nothing to cancel.`);
    }
    if (c.dto.status !== 'running') throw new StrataError('conflict', `Comparison "${comparisonId}" has already ended (${c.dto.status}); there is nothing to cancel.`);
    c.cancelled = true;
    c.abort.abort();
    await c.ended;
    return this.#withRemoved(c.dto);
  }

  /** True while a running comparison replays `traceId` (a trace it replays cannot be removed). */
  replaying(traceId: string): boolean {
    return [...this.#all.values()].some((c) => c.dto.status === 'running' && c.dto.traceIds.includes(traceId));
  }

  #removedOf(traces: ComparisonDto['traces']): ComparisonDto['traces'] {
    return traces.map((t) => ({ ...t, removed: !this.deps.catalog.getTrace(t.traceId) }));
  }

  #withRemoved(dto: ComparisonDto): ComparisonDto {
    const traces = this.#removedOf(dto.traces);
    return traces.some((t, i) => t.removed !== dto.traces[i]!.removed) ? { ...dto, traces } : dto;
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
      // A replay stopped by a cancel did not fail.
      else if (!(c.cancelled && d.error === 'cancelled')) errors.push({ traceId: d.job.trace, strategy: d.job.strategy, budget: isBaseline(d.job.strategy) ? null : d.job.budget, error: d.error ?? 'unknown error' });
    }
    const status = c.cancelled ? 'cancelled' : results.length > 0 ? 'finished' : 'failed';
    const total = c.dto.progress.total;
    const doneCount = c.cancelled ? results.length + errors.length : total;
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
    c.dto = { ...c.dto, status, finishedAt: this.deps.clock.now(), progress: { done: doneCount, total }, results, errors, recorded, notes };
    this.deps.catalog.saveComparison({ id: c.dto.comparisonId, seq: c.seq, startedAt: c.dto.startedAt, summary: summaryOf(c.dto), dto: c.dto });
    this.#progress.push({ comparisonId: c.dto.comparisonId, done: doneCount, total, status });
  }

  /** Forget the oldest finished comparisons beyond the kept number (running ones stay). */
  #evict(): void {
    for (const [id, c] of this.#all) {
      if (this.#all.size <= COMPARISONS_KEPT) return;
      if (c.dto.status !== 'running') this.#all.delete(id);
    }
  }
}

const isBaseline = (s: ComparisonStrategy): boolean => s === 'full_history_baseline' || s === 'as_recorded';

/** The number in a comparison id (`cmp-12` → 12), which orders the history. */
const seqOf = (id: string): number => Number(/(\d+)$/.exec(id)?.[1] ?? 0);

/** What the history lists of a comparison. */
function summaryOf(c: ComparisonDto): ComparisonSummaryDto {
  return { comparisonId: c.comparisonId, status: c.status, traces: c.traces, strategies: c.strategies, budgets: c.budgets, provider: c.provider, model: c.model, startedAt: c.startedAt, finishedAt: c.finishedAt, progress: c.progress };
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
