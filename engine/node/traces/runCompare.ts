import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { CacheProvider, CacheTtl } from '../../providers/cacheModel';
import type { StrategyName } from '../../strategies/Strategy';
import { loadTraceFile, runReplayJob, runReplayJobs, type ReplayJob, type ReplayJobResult, type ReplayProgress } from './replayWorker';
import { MAX_TRACE_LINE_BYTES } from '../../traces/jsonText';
import { splitDatabasePath } from './readTraceSource';
import type { SkippedTraceLine, TraceEvent } from '../../traces/TraceEvent';
import type { BaselineName, ReplayResult } from '../../traces/replay/ReplayTypes';
import { compareNotes } from '../../traces/compare/compareNotes';
import { compareRows, type CompareRow } from '../../traces/compare/compareTable';
import { recordedRows, type RecordedRow } from '../../traces/compare/recordedTable';

/** OpenCode's database file (`opencode.db`, or a channel's `opencode-<channel>.db`): its most recent session is a trace. */
const OPENCODE_DATABASE = /^opencode(?:-[\w.-]+)?\.db$/;

/** What a folder search found: the trace files, and the entries it could not read, each with why. */
export interface TraceFileSearch {
  files: string[];
  refused: { path: string; error: string }[];
  /** Both, in the order the search met them (folders in name order). */
  entries: ({ path: string } | { path: string; error: string })[];
}

/**
 * Trace files under `paths`: files as given (an OpenCode database session as `<db>#<sessionId>`
 * too), folders searched recursively for .jsonl, .json and .traj files and OpenCode databases.
 * An entry of a folder that cannot be read (a symbolic link to nothing, a link loop, a subfolder
 * without permission) is refused with a reason naming it and the search goes on, so one bad entry
 * never hides the others; a folder reached twice through links is searched once. A path given
 * that does not exist is refused the same way.
 */
export function findTraceFiles(paths: readonly string[]): TraceFileSearch {
  const entries: TraceFileSearch['entries'] = [];
  const listed = new Set<string>();
  const searched = new Set<string>();
  const refuse = (path: string, err: unknown) => void entries.push({ path, error: `${path}: ${unreadableEntry(path, err)}` });
  const list = (path: string) => {
    if (listed.has(path)) return;
    listed.add(path);
    entries.push({ path });
  };
  const walk = (p: string, given: boolean) => {
    let info;
    try {
      info = statSync(p, { throwIfNoEntry: false });
    } catch (err) {
      return void refuse(p, err);
    }
    if (!info && given && splitDatabasePath(p)) return void list(p);
    if (!info) return void refuse(p, Object.assign(new Error('missing'), { code: 'ENOENT' }));
    if (info.isFile()) return void list(p);
    if (!info.isDirectory()) return void (given ? list(p) : undefined);
    let names: string[];
    try {
      const real = realpathSync(p);
      if (searched.has(real)) return;
      searched.add(real);
      names = readdirSync(p).sort();
    } catch (err) {
      return void refuse(p, err);
    }
    for (const name of names) {
      const child = join(p, name);
      const traceName = /\.(jsonl|json|traj)$/.test(name) || OPENCODE_DATABASE.test(name);
      let childInfo;
      try {
        childInfo = statSync(child, { throwIfNoEntry: false });
      } catch (err) {
        if (traceName) refuse(child, err);
        continue;
      }
      if (childInfo?.isDirectory()) walk(child, false);
      else if (traceName && childInfo) list(child);
      else if (traceName) refuse(child, Object.assign(new Error('missing'), { code: 'ENOENT' }));
    }
  };
  for (const p of paths) walk(resolve(p), true);
  return { files: entries.flatMap((e) => ('error' in e ? [] : [e.path])), refused: entries.flatMap((e) => ('error' in e ? [e] : [])), entries };
}

/** Why a folder entry cannot be read, in words (a link to nothing is told from a missing file). */
function unreadableEntry(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    try {
      if (lstatSync(path).isSymbolicLink()) return `a symbolic link to ${readlinkSync(path)}, which does not exist`;
    } catch {
      // Not there at all: the plain message below.
    }
    return 'no such file or folder';
  }
  if (code === 'ELOOP') return 'a loop of symbolic links';
  if (code === 'EACCES' || code === 'EPERM') return 'not readable (permission denied)';
  return `cannot be read (${err instanceof Error ? err.message : String(err)})`;
}

/** The trace files {@link findTraceFiles} finds; throws naming the first entry it could not read. */
export function traceFiles(paths: readonly string[]): string[] {
  const found = findTraceFiles(paths);
  const first = found.refused[0];
  if (first) throw new Error(first.error);
  return found.files;
}

export interface CompareOptions {
  files: readonly string[];
  strategies: readonly (StrategyName | BaselineName)[];
  budgets: readonly number[];
  provider: CacheProvider;
  /** Reprice every trace as this model (`--model`); default each trace's recorded model. */
  model?: string;
  /** The breakpoints' lifetime for every trace (`--ttl`); default each recording's, else 5 minutes. */
  ttl?: CacheTtl;
  /** The context window for every trace (`--window`); default each recording's, else its model's documented one (`[replay-window-default]`). */
  window?: number;
  workers?: number;
  /**
   * Run in the calling thread (one job after another, yielding between jobs) instead of worker
   * threads: for a bundled CLI, whose single file cannot be a worker entry.
   */
  inThread?: boolean;
  onProgress?: (p: ReplayProgress) => void;
}

export interface CompareRun {
  results: ReplayResult[];
  /** Jobs that failed (a malformed trace, …) with why; the others still ran. */
  errors: { trace: string; strategy: string; budget: number; error: string }[];
  rows: CompareRow[];
  /** What the recording agents were billed, per trace with usage (`recordedRows`, labelled by `traceLabels`). */
  recorded: RecordedRow[];
  /** What the dollars and cache TTLs rest on (`compareNotes`, labelled by `traceLabels`). */
  notes: string[];
  seconds: number;
}

/** A short label per trace path: its file name, or its path from the working folder where two names collide. */
function traceLabels(files: readonly string[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const f of files) count.set(basename(f), (count.get(basename(f)) ?? 0) + 1);
  return new Map(files.map((f) => [f, count.get(basename(f))! > 1 ? relative(process.cwd(), f) || f : basename(f)]));
}

/** The recorded rows of finished jobs, each labelled by its trace. */
export function recordedOf(done: readonly { job: { trace: string }; result?: ReplayResult }[]): RecordedRow[] {
  const labels = traceLabels([...new Set(done.map((d) => d.job.trace))]);
  return recordedRows(done.flatMap((d) => (d.result ? [{ trace: labels.get(d.job.trace)!, result: d.result }] : [])));
}

/** The notes of finished jobs (`compareNotes`), each labelled by its trace. */
export function notesOf(done: readonly { job: { trace: string }; result?: ReplayResult; skippedLines?: readonly SkippedTraceLine[] }[]): string[] {
  const labels = traceLabels([...new Set(done.map((d) => d.job.trace))]);
  // Lines a trace file left out for their length are said once per trace (`[trace-line-cap]`): its figures are of the file without them.
  const skipped = new Map<string, readonly SkippedTraceLine[]>();
  for (const d of done) if (d.skippedLines?.length && !skipped.has(d.job.trace)) skipped.set(d.job.trace, d.skippedLines);
  const lineNotes = [...skipped].map(([trace, lines]) => `${labels.get(trace)!}: ${lines.length === 1 ? 'one line was' : `${lines.length} lines were`} left out, longer than the ${MAX_TRACE_LINE_BYTES / 2 ** 20} MiB a line may be (${lines.slice(0, 5).map((l) => `${l.file === trace ? '' : `${l.file} `}line ${l.line}, ${(l.bytes / 2 ** 20).toFixed(1)} MiB`).join('; ')}${lines.length > 5 ? `; and ${lines.length - 5} more` : ''}); its figures are those of the file without ${lines.length === 1 ? 'it' : 'them'}.`);
  return [...lineNotes, ...compareNotes(done.flatMap((d) => (d.result ? [{ trace: labels.get(d.job.trace)!, result: d.result }] : [])))];
}

/** The jobs of a comparison, trace by trace: every strategy at every budget, the baseline (which has none) once. */
export function compareJobs(o: Pick<CompareOptions, 'files' | 'strategies' | 'budgets' | 'provider' | 'model' | 'ttl' | 'window'>): ReplayJob[] {
  const pricing = { ...(o.model ? { model: o.model } : {}), ...(o.ttl ? { ttl: o.ttl } : {}), window: o.window ?? ('model' as const) };
  return o.files.flatMap((trace) => o.strategies.flatMap((strategy) => (strategy === 'full_history_baseline' || strategy === 'as_recorded' ? [o.budgets[0] ?? 0] : o.budgets).map((budget) => ({ trace, strategy, budget, provider: o.provider, ...pricing, recorded: true }))));
}

/**
 * Replay every file under every strategy at every budget in worker threads (`[replay-worker]`),
 * and sum the results per strategy and budget. A trace that cannot be read fails its own jobs only.
 */
export async function runCompare(o: CompareOptions): Promise<CompareRun> {
  const t0 = performance.now();
  const jobs = compareJobs(o);
  const done = o.inThread ? await runInThread(jobs, o.onProgress) : await runReplayJobs(jobs, { workers: o.workers ?? 2, ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
  const results = done.flatMap((d) => (d.result ? [d.result] : []));
  const errors = done.flatMap((d) => (d.error ? [{ trace: d.job.trace, strategy: d.job.strategy, budget: d.job.budget, error: d.error }] : []));
  return { results, errors, rows: compareRows(results), recorded: recordedOf(done), notes: notesOf(done), seconds: (performance.now() - t0) / 1000 };
}

async function runInThread(jobs: readonly ReplayJob[], onProgress?: (p: ReplayProgress) => void): Promise<ReplayJobResult[]> {
  const out: ReplayJobResult[] = [];
  let loaded: { path: string; events?: readonly TraceEvent[]; skippedLines?: SkippedTraceLine[]; error?: string } | undefined;
  for (const [k, job] of jobs.entries()) {
    const t0 = performance.now();
    if (loaded?.path !== job.trace) {
      try {
        loaded = loadTraceFile(job.trace);
      } catch (err) {
        loaded = { path: job.trace, error: err instanceof Error ? err.message : String(err) };
      }
    }
    try {
      if (!loaded.events) throw new Error(loaded.error ?? 'unreadable trace');
      out.push({ job, result: runReplayJob(job, loaded.events), ...(loaded.skippedLines ? { skippedLines: loaded.skippedLines } : {}), ms: performance.now() - t0 });
    } catch (err) {
      out.push({ job, error: err instanceof Error ? err.message : String(err), ms: performance.now() - t0 });
    }
    onProgress?.({ done: k + 1, total: jobs.length, trace: job.trace, strategy: job.strategy, budget: job.budget });
    await new Promise((r) => setImmediate(r));
  }
  return out;
}
