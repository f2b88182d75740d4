/**
 * Runs batches of counterfactual replays (trace file × strategy × budget) in a worker thread, so a
 * caller (the host, a benchmark) is never blocked by them (`[replay-worker]`). The one module of
 * the replay that uses Node: `node:worker_threads`, and the trace files it reads in place.
 *
 * The worker runs this same module. When it is TypeScript source (tests, `tsx`), a worker thread
 * cannot load it by itself — Node 20 does not pass the parent's loader hooks to workers, and
 * `--import tsx` in `execArgv` does not reach a worker's entry point — so the worker starts from a
 * small evaluated script that registers tsx's ESM hooks (`tsx/esm/api` `register()`) and then
 * imports this file. Built JavaScript is loaded directly.
 *
 * Protocol: the caller posts nothing; the jobs travel in `workerData`. The worker posts
 * `{ kind: 'progress', done, total, trace, strategy, budget }` after each job and
 * `{ kind: 'result', index, result | error, ms }` for it; results are plain data.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { CacheProvider, CacheTtl } from '../../providers/cacheModel';
import type { StrategyName } from '../../strategies/Strategy';
import { memoTokenizer } from '../../tokens/memoTokenizer';
import type { TiktokenEncodingName } from '../../tokens/tiktokenTokenizer';
import type { Tokenizer } from '../../tokens/Tokenizer';
import { importTraceFile } from './importTraceFile';
import type { SkippedTraceLine, TraceEvent } from '../../traces/TraceEvent';
import { recordedSummary } from '../../traces/replay/recordedTruth';
import { DEFAULT_REPLAY_MODEL, modelSourceOf, providerOfModel, recordedModel } from '../../traces/replay/replayDefaults';
import { chooseWindow } from '../../traces/replay/replayWindow';
import { replayAsRecorded, replayFullHistoryBaseline } from '../../traces/replay/replayTranscript';
import { replayTrace } from '../../traces/replay/replayTrace';
import type { BaselineName, ReplayResult } from '../../traces/replay/ReplayTypes';

export interface ReplayJob {
  /** Path of the trace file (read in place); with `events`, only the trace's name. */
  trace: string;
  /** The trace's events when the caller already has them (a catalog's imported trace): no file is read. */
  events?: readonly TraceEvent[];
  /** An engine strategy, or one of the baselines (the no-limit full history, the agent as it ran). */
  strategy: StrategyName | BaselineName;
  /** The agent's budget (ignored by the baseline). */
  budget: number;
  provider: CacheProvider;
  /** The model priced (`--model`); default the trace's recorded model. */
  model?: string;
  /** The breakpoints' lifetime (`--ttl`); default the recording's, else 5 minutes (`[replay-ttl]`). */
  ttl?: CacheTtl;
  /**
   * The context window requests are held against (`[replay-window-default]`): a number of tokens
   * (`--window`), `'model'` for the one the recording states, else the priced model's documented
   * one (`chooseWindow`); absent, none (a live session's shadow). The result says which (`ReplayResult.window`).
   */
  window?: number | 'model';
  /** Tokenizer encoding (default o200k_base). */
  encoding?: TiktokenEncodingName;
  /**
   * Count every text afresh in this job instead of sharing counts with the jobs before it in the
   * same worker, so its overhead figures do not depend on the order of the jobs (slower).
   */
  coldTokenizer?: boolean;
  /** Return the replayed agent's generations and latest prompt too (`ReplayOptions.capture`). */
  capture?: boolean;
  /**
   * Attach what the recording's provider billed (`ReplayResult.recorded`, `[replay-truth-reported]`):
   * comparisons ask for it; a live session's shadow replay, which keeps its own, does not.
   */
  recorded?: boolean;
}

export interface ReplayProgress {
  /** Jobs finished so far (over all workers) and in all. */
  done: number;
  total: number;
  trace: string;
  strategy: ReplayJob['strategy'];
  budget: number;
}

export interface ReplayJobResult {
  job: ReplayJob;
  result?: ReplayResult;
  /** Why the job failed (the trace could not be read, an invalid option…); the other jobs still run. */
  error?: string;
  /** Lines of the trace file left out for their length (`[trace-line-cap]`), when it was read from a file and some were. */
  skippedLines?: SkippedTraceLine[];
  /** Wall time of the job in the worker. */
  ms: number;
}

export interface RunReplayJobsOptions {
  onProgress?: (progress: ReplayProgress) => void;
  /** Worker threads to spread the jobs over (default 1; jobs of one trace stay on one worker). */
  workers?: number;
  /**
   * The module a worker starts from, when this module is bundled into a file that cannot be one
   * (a CLI or an Electron main bundle): a build entry of its own that is this module. Default: this module.
   */
  workerUrl?: URL;
  /** Aborting terminates the workers; the jobs they had not finished fail as cancelled. */
  signal?: AbortSignal;
}

type WorkerMessage =
  | ({ kind: 'progress' } & ReplayProgress)
  | { kind: 'result'; index: number; result?: ReplayResult; error?: string; skippedLines?: SkippedTraceLine[]; ms: number };

interface WorkerInput {
  strataReplayWorker: true;
  jobs: { index: number; job: ReplayJob }[];
}

const shared = new Map<TiktokenEncodingName, Tokenizer>();
/** One `memoTokenizer` per encoding for the whole thread. */
export function sharedTokenizer(encoding: TiktokenEncodingName = 'o200k_base'): Tokenizer {
  let t = shared.get(encoding);
  if (!t) {
    t = memoTokenizer(encoding);
    shared.set(encoding, t);
  }
  return t;
}

/** One job in the calling thread: what the worker runs for each job. */
export function runReplayJob(job: ReplayJob, events: readonly TraceEvent[], tokenizer: Tokenizer = job.coldTokenizer ? memoTokenizer(job.encoding) : sharedTokenizer(job.encoding)): ReplayResult {
  const common = { tokenizer, provider: job.provider, ...(job.model ? { model: job.model } : {}), ...(job.ttl ? { ttl: job.ttl } : {}) };
  const baseline = job.strategy === 'full_history_baseline' ? replayFullHistoryBaseline : job.strategy === 'as_recorded' ? replayAsRecorded : undefined;
  const model = job.model ?? recordedModel(events) ?? DEFAULT_REPLAY_MODEL[job.provider];
  const window = job.window === undefined ? undefined : chooseWindow(events, model, modelSourceOf(events, job.model), job.window === 'model' ? undefined : job.window);
  const result = baseline
    ? baseline(events, { ...common, ...(window?.tokens != null ? { window: window.tokens } : {}) })
    : replayTrace(events, { ...common, strategy: job.strategy as StrategyName, budget: job.budget, ...(window?.tokens != null ? { window: window.tokens } : {}), ...(job.capture ? { capture: true } : {}) });
  if (window) result.window = window;
  if (!job.recorded) return result;
  // The cache model is judged against the recording with the provider that billed it.
  const own = baseline ? providerOfModel(recordedModel(events)) : undefined;
  const reference = baseline && own && own !== job.provider ? baseline(events, { ...common, provider: own }) : result;
  const recorded = recordedSummary(events, result, reference);
  if (recorded) result.recorded = recorded;
  return result;
}

/** A trace file's events, and the lines left out of them for their length. */
export function loadTraceFile(path: string): { path: string; events: readonly TraceEvent[]; skippedLines?: SkippedTraceLine[] } {
  const t = importTraceFile(path);
  return { path, events: t.events, ...(t.skippedLines ? { skippedLines: t.skippedLines } : {}) };
}

function workerMain(input: WorkerInput): void {
  const port = parentPort;
  if (!port) return;
  let loaded: { path: string; events: readonly TraceEvent[]; skippedLines?: SkippedTraceLine[] | undefined } | undefined;
  input.jobs.forEach(({ index, job }, k) => {
    const t0 = performance.now();
    let message: WorkerMessage;
    try {
      if (loaded?.path !== job.trace) loaded = job.events ? { path: job.trace, events: job.events } : loadTraceFile(job.trace);
      message = { kind: 'result', index, result: runReplayJob(job, loaded.events), ...(loaded.skippedLines ? { skippedLines: loaded.skippedLines } : {}), ms: performance.now() - t0 };
    } catch (err) {
      message = { kind: 'result', index, error: err instanceof Error ? err.message : String(err), ms: performance.now() - t0 };
    }
    port.postMessage(message);
    port.postMessage({ kind: 'progress', done: k + 1, total: input.jobs.length, trace: job.trace, strategy: job.strategy, budget: job.budget } satisfies WorkerMessage);
  });
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.strataReplayWorker === true) workerMain(workerData as WorkerInput);

/** The URL of tsx's ESM registration API (its `import` build). */
function tsxApiUrl(): string {
  const meta = import.meta as ImportMeta & { resolve?: (specifier: string) => string };
  try {
    if (typeof meta.resolve === 'function') return meta.resolve('tsx/esm/api');
  } catch {
    // Not resolvable this way here (a test runner's module system): use the path below.
  }
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
}

/**
 * A worker thread running the module at `url` with `workerData`: TypeScript source through tsx's
 * hooks (see the module comment), built JavaScript directly. Other modules' workers (a benchmark's)
 * start the same way.
 */
export function moduleWorker(url: string, workerData: unknown): Worker {
  if (!fileURLToPath(url).endsWith('.ts')) return new Worker(new URL(url), { workerData });
  const boot = `import(${JSON.stringify(tsxApiUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

function startWorker(data: WorkerInput, entry: URL | undefined): Worker {
  return entry ? new Worker(entry, { workerData: data }) : moduleWorker(import.meta.url, data);
}

/**
 * Runs `jobs` in worker threads and resolves with one result per job, in job order; `onProgress`
 * hears after every job. The calling thread only receives messages. A job that fails carries its
 * error; a worker that dies (or is terminated by `signal`) fails the jobs it had not finished.
 */
export function runReplayJobs(jobs: readonly ReplayJob[], options: RunReplayJobsOptions = {}): Promise<ReplayJobResult[]> {
  const results: (ReplayJobResult | undefined)[] = jobs.map(() => undefined);
  if (jobs.length === 0) return Promise.resolve([]);
  if (options.signal?.aborted) return Promise.resolve(jobs.map((job) => ({ job, error: 'cancelled', ms: 0 })));
  // Jobs of one trace go to the same worker, so it reads and tokenizes the trace once.
  const traces = [...new Set(jobs.map((j) => j.trace))];
  const count = Math.max(1, Math.min(options.workers ?? 1, traces.length));
  const shares: WorkerInput[] = Array.from({ length: count }, () => ({ strataReplayWorker: true, jobs: [] }));
  jobs.forEach((job, index) => (shares[traces.indexOf(job.trace) % count] as WorkerInput).jobs.push({ index, job }));
  let done = 0;
  const runs = shares.map(
    (share) =>
      new Promise<void>((resolve) => {
        const worker = startWorker(share, options.workerUrl);
        const finish = (why?: string) => {
          for (const { index, job } of share.jobs) results[index] ??= { job, error: why ?? 'the worker exited before this job finished', ms: 0 };
          options.signal?.removeEventListener('abort', cancel);
          resolve();
        };
        const cancel = () => {
          finish('cancelled');
          void worker.terminate();
        };
        options.signal?.addEventListener('abort', cancel, { once: true });
        worker.on('message', (m: WorkerMessage) => {
          if (m.kind === 'result') {
            const job = jobs[m.index] as ReplayJob;
            const skipped = m.skippedLines ? { skippedLines: m.skippedLines } : {};
            results[m.index] = m.result ? { job, result: m.result, ...skipped, ms: m.ms } : { job, error: m.error ?? 'unknown error', ...skipped, ms: m.ms };
          } else {
            done++;
            options.onProgress?.({ done, total: jobs.length, trace: m.trace, strategy: m.strategy, budget: m.budget });
          }
        });
        worker.on('error', (err) => finish(`the replay worker failed: ${err instanceof Error ? err.message : String(err)}`));
        worker.on('exit', () => finish());
      }),
  );
  return Promise.all(runs).then(() => results as ReplayJobResult[]);
}
