import { Worker } from 'node:worker_threads';

/** Lines of one file to match. */
export interface SliceFile {
  relative: string;
  lines: string[];
}

/** A matching line: file, 1-based line number, text. */
export interface SliceHit {
  file: string;
  line: number;
  text: string;
}

/** A slice ran past its budget: the worker was terminated (the pattern is probably catastrophic). */
export class SliceTimeout extends Error {}
/** The search was cancelled while a slice ran: the worker was terminated. */
export class SliceCancelled extends Error {}

/**
 * The worker's whole program, as source evaluated in the worker (`eval: true`): a bundle cannot
 * be a worker's entry and this needs none, so the same code runs from TypeScript source under a
 * test runner and from the built host. It compiles the pattern once and answers each slice with
 * its hits, at most `want`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', ({ files, want }) => {
  const hits = [];
  search: for (const f of files) {
    for (let i = 0; i < f.lines.length; i++) {
      if (re.test(f.lines[i])) {
        hits.push({ file: f.relative, line: i + 1, text: f.lines[i] });
        if (hits.length >= want) break search;
      }
    }
  }
  parentPort.postMessage(hits);
});
`;

/**
 * Regular-expression matching for `grep` in a worker thread, so a backtracking pattern never holds
 * the host's thread: each slice gets `budgetMs` from the moment the worker has it, and a slice that
 * runs past it, or a search cancelled meanwhile, terminates the worker (V8 stops a running regex
 * only that way or with a watchdog on its own thread). One worker per search, started on its first
 * slice; `close` ends it.
 */
export class RegexWorker {
  #worker: Worker | undefined;
  #online: Promise<void> | undefined;
  #dead = false;

  constructor(
    private readonly pattern: string,
    private readonly flags: string,
    private readonly budgetMs: number,
  ) {}

  /** The hits of `files`, at most `want`; rejects with `SliceTimeout` or `SliceCancelled` (the worker is then gone). */
  async match(files: SliceFile[], want: number, signal?: AbortSignal): Promise<SliceHit[]> {
    if (this.#dead) throw new Error('the regex worker has stopped');
    if (signal?.aborted) throw new SliceCancelled();
    const worker = this.#start();
    await this.#online;
    return new Promise<SliceHit[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const stop = (err: Error) => {
        done();
        this.close();
        reject(err);
      };
      const onMessage = (hits: SliceHit[]) => {
        done();
        resolve(hits);
      };
      const onError = (err: Error) => stop(err);
      const onExit = (code: number) => stop(new Error(`the regex worker exited (code ${code})`));
      const onAbort = () => stop(new SliceCancelled());
      const timer = setTimeout(() => stop(new SliceTimeout()), this.budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ files, want });
    });
  }

  /** End the worker (idempotent). */
  close(): void {
    this.#dead = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) void worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern: this.pattern, flags: this.flags } });
    this.#worker = worker;
    this.#online = new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
    return worker;
  }
}
