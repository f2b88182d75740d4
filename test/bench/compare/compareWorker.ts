/**
 * The comparison benchmark's worker pool: the engine's replay jobs (`runReplayJob`) and the peers'
 * (`replayPeer`) over one pool of worker threads. Dev-only: the peers are dev dependencies, so
 * this lives under test/bench and the engine's own `runReplayJobs` never loads them.
 *
 * A worker counts every job with its thread's shared memoized tokenizer, so the jobs of one trace
 * that run on one worker read the trace once and count each text once (that halves the engine's
 * CPU on a trace). Scheduling keeps them together: an idle worker takes the next job of a trace
 * it has started; else the first job of the largest trace nobody has started (longest first);
 * else, near the end, the next job of the trace with the most work left, so no worker idles while
 * another still has a queue. A job costs its trace's size in bytes; a trace's jobs start in the
 * order given.
 *
 * Workers start this module (`moduleWorker`, the engine's way of running TypeScript in a worker).
 * Protocol: the pool posts `{ index, job }` to an idle worker, one job at a time, and the worker
 * answers `{ index, result | error, ms }`; both are plain data.
 */
import { statSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { CacheProvider, CacheTtl } from '../../../engine/providers/cacheModel';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import type { ReplayResult } from '../../../engine/traces/replay/ReplayTypes';
import { moduleWorker, runReplayJob, sharedTokenizer, type ReplayJob } from '../../../engine/node/traces/replayWorker';
import { replayPeer } from './peerReplay';
import { peerAdapters } from './peers';

/** One peer library (by adapter name) replayed on a trace at a budget. */
export interface PeerJob {
  trace: string;
  peer: string;
  budget: number;
  provider: CacheProvider;
  /** As `ReplayJob.model` and `ReplayJob.ttl`. */
  model?: string;
  ttl?: CacheTtl;
}

export type CompareJob = ReplayJob | PeerJob;

const isPeerJob = (job: CompareJob): job is PeerJob => 'peer' in job;

/**
 * The engine's jobs and every peer's at every budget, trace by trace (the engine's first), so a
 * worker reads each trace once.
 */
export function withPeerJobs(engineJobs: readonly ReplayJob[], peers: readonly { name: string }[], budgets: readonly number[], provider: CacheProvider, pricing: Pick<PeerJob, 'model' | 'ttl'> = {}): CompareJob[] {
  const traces = [...new Set(engineJobs.map((j) => j.trace))];
  return traces.flatMap((trace) => [...engineJobs.filter((j) => j.trace === trace), ...peers.flatMap((p) => budgets.map((budget) => ({ trace, peer: p.name, budget, provider, ...pricing })))]);
}

/** The jobs that failed, named as their rows are. */
export const failedJobs = (done: readonly CompareJobResult[]) =>
  done.flatMap((d) => (d.error === undefined ? [] : [{ trace: d.job.trace, strategy: jobName(d.job), budget: d.job.budget, error: d.error }]));

/** The strategy or peer a job runs, as its row is named. */
export const jobName = (job: CompareJob): string => (isPeerJob(job) ? job.peer : job.strategy);

export interface CompareJobResult {
  job: CompareJob;
  result?: ReplayResult;
  /** Why the job failed; the other jobs still run. */
  error?: string;
  /** Wall time of the job in its worker. */
  ms: number;
}

interface WorkerInput {
  strataCompareWorker: true;
}
type JobMessage = { index: number; job: CompareJob };
type ResultMessage = { index: number; result?: ReplayResult; error?: string; ms: number };

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

let loaded: { path: string; events: TraceEvent[] } | undefined;

/** One job in the calling thread, as a worker runs it (the last trace read is kept for the next job). */
function runCompareJob(job: CompareJob): ReplayResult | Promise<ReplayResult> {
  if (loaded?.path !== job.trace) loaded = { path: job.trace, events: importTraceFile(job.trace).events };
  if (!isPeerJob(job)) return runReplayJob(job, loaded.events);
  const peer = peerAdapters.find((p) => p.name === job.peer);
  if (!peer) throw new Error(`no peer adapter is named ${job.peer}`);
  return replayPeer(loaded.events, peer, { budget: job.budget, tokenizer: sharedTokenizer(), provider: job.provider, ...(job.model ? { model: job.model } : {}), ...(job.ttl ? { ttl: job.ttl } : {}) });
}

function workerMain(): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', ({ index, job }: JobMessage) => {
    const t0 = performance.now();
    const answer = (m: { result?: ReplayResult; error?: string }) => port.postMessage({ index, ...m, ms: performance.now() - t0 } satisfies ResultMessage);
    // The pool posts the next job only after this answer, so jobs never overlap in a worker.
    Promise.resolve()
      .then(() => runCompareJob(job))
      .then(
        (result) => answer({ result }),
        (err: unknown) => answer({ error: messageOf(err) }),
      );
  });
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.strataCompareWorker === true) workerMain();

/**
 * Runs `jobs` over `workers` worker threads (at most one per trace), scheduled as the module
 * comment says, and resolves with one result per job, in job order; `onResult` hears each one as
 * it finishes. A worker that dies fails the job it was running and the others take over its
 * queue; with none left, the remaining jobs fail.
 */
export function runCompareJobs(jobs: readonly CompareJob[], options: { workers: number; onResult?: (r: CompareJobResult, done: number, total: number) => void }): Promise<CompareJobResult[]> {
  const results: (CompareJobResult | undefined)[] = jobs.map(() => undefined);
  if (jobs.length === 0) return Promise.resolve([]);
  const queues = new Map<string, number[]>();
  jobs.forEach((job, index) => {
    const queue = queues.get(job.trace) ?? [];
    queue.push(index);
    queues.set(job.trace, queue);
  });
  // One more than the size, so a trace that cannot be read still has jobs (to fail).
  const cost = new Map([...queues.keys()].map((t) => [t, (statSync(t, { throwIfNoEntry: false })?.size ?? 0) + 1]));
  const workLeft = (trace: string) => (queues.get(trace) as number[]).length * (cost.get(trace) as number);
  const started = new Set<string>();
  const most = (traces: Iterable<string>): string | undefined => {
    let best: string | undefined;
    for (const t of traces) if (workLeft(t) > 0 && (best === undefined || workLeft(t) > workLeft(best))) best = t;
    return best;
  };
  /** The next job for a worker that has started the traces `own`. */
  const take = (own: Set<string>): number | undefined => {
    const trace = most(own) ?? most([...queues.keys()].filter((t) => !started.has(t))) ?? most(queues.keys());
    if (trace === undefined) return undefined;
    started.add(trace);
    own.add(trace);
    return (queues.get(trace) as number[]).shift();
  };

  return new Promise((resolve) => {
    const workers = [...Array(Math.max(1, Math.min(options.workers, queues.size)))].map(() => moduleWorker(import.meta.url, { strataCompareWorker: true } satisfies WorkerInput));
    let done = 0;
    let alive = workers.length;
    const settle = (index: number, r: Omit<CompareJobResult, 'job'>) => {
      if (results[index]) return;
      const result: CompareJobResult = { job: jobs[index] as CompareJob, ...r };
      results[index] = result;
      done++;
      options.onResult?.(result, done, jobs.length);
      if (done < jobs.length) return;
      for (const w of workers) void w.terminate();
      resolve(results as CompareJobResult[]);
    };
    for (const worker of workers) {
      const own = new Set<string>();
      let running: number | undefined;
      let dead = false;
      const next = () => {
        running = take(own);
        if (running !== undefined) worker.postMessage({ index: running, job: jobs[running] as CompareJob } satisfies JobMessage);
      };
      const die = (why: string) => {
        if (dead || done === jobs.length) return;
        dead = true;
        alive--;
        if (running !== undefined) settle(running, { error: why, ms: 0 });
        if (alive > 0) return;
        for (let i = take(own); i !== undefined; i = take(own)) settle(i, { error: why, ms: 0 });
      };
      worker.on('message', (m: ResultMessage) => {
        running = undefined;
        settle(m.index, m.error === undefined ? { result: m.result as ReplayResult, ms: m.ms } : { error: m.error, ms: m.ms });
        next();
      });
      worker.on('error', (err) => die(`the compare worker failed: ${messageOf(err)}`));
      worker.on('exit', () => die('the worker exited before this job finished'));
      next();
    }
  });
}
