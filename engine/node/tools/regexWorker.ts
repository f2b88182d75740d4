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

/** How long a worker left idle by one search waits for the next before it ends. */
const REGEX_WORKER_IDLE_MS = 15_000;

/**
 * The worker's whole program, as source evaluated in the worker (`eval: true`): a bundle cannot
 * be a worker's entry and this needs none, so the same code runs from TypeScript source under a
 * test runner and from the built host. It answers each slice with its hits, at most `want`,
 * compiling a pattern once for the slices that follow with it.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let key = '';
let re = null;
parentPort.on('message', ({ pattern, flags, files, want }) => {
  if (re === null || key !== flags + '/' + pattern) {
    re = new RegExp(pattern, flags);
    key = flags + '/' + pattern;
  }
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
 * Regular-expression matching for `grep` in worker threads, so a backtracking pattern never holds
 * the host's thread. Each slice gets `budgetMs` from the moment a started worker has it; a slice
 * that runs past it, or a search cancelled meanwhile, terminates that worker (V8 stops a running
 * regex only that way, or with a watchdog on its own thread). A search takes a worker for itself
 * (the idle one, else a new one) and gives it back when it ends; one idle worker is kept for the
 * next search, unreferenced, and ends after {@link REGEX_WORKER_IDLE_MS}.
 */
export class RegexWorkers {
  #idle: { worker: Worker; timer: ReturnType<typeof setTimeout>; forget: () => void } | undefined;

  constructor(private readonly budgetMs: number) {}

  /** A matcher for one search; `release` it when the search ends. */
  acquire(): RegexSearch {
    const idle = this.#idle;
    this.#idle = undefined;
    if (idle) {
      clearTimeout(idle.timer);
      idle.worker.off('exit', idle.forget);
      idle.worker.off('error', idle.forget);
    }
    return new RegexSearch(idle?.worker, this.budgetMs, (w) => this.#park(w));
  }

  #park(worker: Worker): void {
    if (this.#idle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    // A parked worker runs nothing; should it still fail or exit, it is simply forgotten.
    const forget = () => {
      if (this.#idle?.worker !== worker) return;
      clearTimeout(this.#idle.timer);
      this.#idle = undefined;
    };
    worker.once('exit', forget);
    worker.once('error', forget);
    const timer = setTimeout(() => {
      if (this.#idle?.worker === worker) this.#idle = undefined;
      void worker.terminate();
    }, REGEX_WORKER_IDLE_MS);
    timer.unref?.();
    this.#idle = { worker, timer, forget };
  }
}

/** One search's use of a worker. */
export class RegexSearch {
  #worker: Worker | undefined;
  #online: Promise<void> | undefined;
  #broken = false;

  constructor(
    worker: Worker | undefined,
    private readonly budgetMs: number,
    private readonly park: (worker: Worker) => void,
  ) {
    if (worker) {
      worker.ref();
      this.#worker = worker;
      this.#online = Promise.resolve();
    }
  }

  /** The hits of `files` for `pattern`, at most `want`; rejects with `SliceTimeout` or `SliceCancelled` (the worker is then gone). */
  async match(pattern: string, flags: string, files: SliceFile[], want: number, signal?: AbortSignal): Promise<SliceHit[]> {
    if (signal?.aborted) throw new SliceCancelled();
    const worker = this.#start();
    try {
      await this.#online;
    } catch (err) {
      this.#broken = true;
      throw err;
    }
    return new Promise<SliceHit[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const fail = (err: Error) => {
        done();
        this.#broken = true;
        void worker.terminate();
        reject(err);
      };
      const onMessage = (hits: SliceHit[]) => {
        done();
        resolve(hits);
      };
      const onError = (err: Error) => fail(err);
      const onExit = (code: number) => fail(new Error(`the regex worker exited (code ${code})`));
      const onAbort = () => fail(new SliceCancelled());
      const timer = setTimeout(() => fail(new SliceTimeout()), this.budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ pattern, flags, files, want });
    });
  }

  /** The search ended: a healthy worker goes back for the next search (idempotent). */
  release(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker && !this.#broken) this.park(worker);
  }

  #start(): Worker {
    if (this.#broken) throw new Error('the regex worker has stopped');
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    this.#worker = worker;
    this.#online = new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      worker.once('error', onError);
      worker.once('online', () => {
        worker.off('error', onError);
        resolve();
      });
    });
    return worker;
  }
}
