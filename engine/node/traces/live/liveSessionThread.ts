/**
 * An attached session followed in a worker thread of its own (`[live-thread]`): the tail, the
 * parsing, the conversion to events, the real figures and the counterfactual replay all run there,
 * so a session of any size never holds the host's event loop, and a detached session's memory is
 * returned at once (its thread ends). The host's side, {@link LiveSessionThread}, keeps the latest
 * snapshot it was sent; the replay's result (large: its captured generations) is sent only when a
 * new one is ready.
 *
 * The worker runs this same module (started like the replay worker, `moduleWorker`); in a bundled
 * host it is the build entry `liveWorker.js` (`workerUrl`).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { systemClock } from '../../../ports/Clock';
import { systemScheduler } from '../../../ports/systemScheduler';
import type { StrategyName } from '../../../strategies/Strategy';
import { recordedTruth } from '../../../traces/replay/recordedTruth';
import type { ReplayResult } from '../../../traces/replay/ReplayTypes';
import { moduleWorker } from '../replayWorker';
import { LiveSession, type LiveSessionSnapshot } from './LiveSession';
import { replaySession, type SessionReplay } from './replaySession';

/** What the host needs of an attached session, followed in its thread or in another. */
export interface FollowedSession {
  readonly path: string;
  start(): void;
  stop(): void;
  /** Read what is new and convert it now, without waiting for the throttle. */
  flush(): void;
  /** Resolves once the file has been read to its end and every event replayed (tests, benchmarks). */
  idle(): Promise<void>;
  snapshot(): LiveSessionSnapshot;
}

export interface LiveSessionThreadOptions {
  strategy: StrategyName;
  budget: number;
  /** Hears every new snapshot. */
  onUpdate(snapshot: LiveSessionSnapshot): void;
  /** Hears the subagents' replays that came with a new main replay, just before the snapshot that carries it. */
  onShadows(subagents: Record<string, ReplayResult>): void;
  /** The worker's build entry in a bundled host; default this module. */
  workerUrl?: URL | undefined;
  pollMs?: number | undefined;
  throttleMs?: number | undefined;
}

interface WorkerInput {
  strataLiveWorker: true;
  path: string;
  strategy: StrategyName;
  budget: number;
  pollMs?: number | undefined;
  throttleMs?: number | undefined;
}

type ToWorker = { kind: 'flush' } | { kind: 'idle'; id: number };
type FromWorker =
  /** `shadow` only when the replay is new since the last message (null: none any more). */
  | { kind: 'update'; snapshot: Omit<LiveSessionSnapshot, 'shadow'>; shadow?: SessionReplay | null }
  | { kind: 'idle'; id: number };

/** A snapshot before the thread has said anything. */
function firstSnapshot(path: string): LiveSessionSnapshot {
  return { path, status: 'waiting', message: '', lines: 0, skippedLines: [], events: 0, lastLineAt: null, task: '', client: null, turnEnded: false, contextWindow: null, subagents: [], compactions: [], real: recordedTruth([]), shadow: null, shadowEvents: 0, shadowError: null };
}

/** The host's handle on a session followed in its own worker thread. */
export class LiveSessionThread implements FollowedSession {
  private last: LiveSessionSnapshot;
  private worker: Worker | undefined;
  private stopped = false;
  private nextIdle = 1;
  private readonly waiters = new Map<number, () => void>();

  constructor(
    readonly path: string,
    private readonly o: LiveSessionThreadOptions,
  ) {
    this.last = firstSnapshot(path);
  }

  start(): void {
    if (this.worker || this.stopped) return;
    const input: WorkerInput = { strataLiveWorker: true, path: this.path, strategy: this.o.strategy, budget: this.o.budget, pollMs: this.o.pollMs, throttleMs: this.o.throttleMs };
    const worker = this.o.workerUrl ? new Worker(this.o.workerUrl, { workerData: input }) : moduleWorker(import.meta.url, input);
    this.worker = worker;
    worker.unref();
    worker.on('message', (m: FromWorker) => {
      if (this.stopped) return;
      if (m.kind === 'idle') {
        this.waiters.get(m.id)?.();
        this.waiters.delete(m.id);
        return;
      }
      if (m.shadow !== undefined) this.o.onShadows(m.shadow?.subagents ?? {});
      this.last = { ...m.snapshot, shadow: m.shadow === undefined ? this.last.shadow : (m.shadow?.main ?? null) };
      this.o.onUpdate(this.last);
    });
    worker.on('error', (err) => this.failed(err instanceof Error ? err.message : String(err)));
    worker.on('exit', (code) => this.failed(`it exited with code ${code}`));
  }

  /** The thread ended without being stopped: the session shows why, with its last figures. */
  private failed(why: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.last = { ...this.last, status: 'error', message: `Strata stopped following this session: its thread failed (${why}). Detach it and attach it again.` };
    this.o.onUpdate(this.last);
    this.settleAll();
  }

  private settleAll(): void {
    for (const w of this.waiters.values()) w();
    this.waiters.clear();
  }

  private post(m: ToWorker): void {
    if (!this.stopped) this.worker?.postMessage(m);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    void this.worker?.terminate();
    this.worker = undefined;
    // Nothing of the session is held here either once it is detached (`[live-release]`).
    this.last = { ...firstSnapshot(this.path), status: this.last.status, message: this.last.message };
    this.settleAll();
  }

  flush(): void {
    this.post({ kind: 'flush' });
  }

  idle(): Promise<void> {
    if (this.stopped || !this.worker) return Promise.resolve();
    const id = this.nextIdle++;
    return new Promise((resolve) => {
      this.waiters.set(id, resolve);
      this.post({ kind: 'idle', id });
    });
  }

  snapshot(): LiveSessionSnapshot {
    return this.last;
  }
}

/** The worker: one `LiveSession` with its replay in this thread, on the real clock and timers, reporting to the host. */
function workerMain(input: WorkerInput): void {
  const port = parentPort;
  if (!port) return;
  const scheduler = systemScheduler;
  let replayed: SessionReplay | undefined;
  let sentMain: ReplayResult | null = null;
  const session = new LiveSession(input.path, {
    clock: systemClock,
    scheduler,
    replay: (events) =>
      // A turn of the event loop first, so the snapshot of the conversion goes out before the replay holds this thread.
      new Promise((resolve, reject) =>
        scheduler.after(0, () => {
          try {
            replayed = replaySession(events, input);
            resolve(replayed.main);
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        }),
      ),
    onUpdate: (snapshot) => {
      const { shadow, ...rest } = snapshot;
      const message: FromWorker = { kind: 'update', snapshot: rest };
      if (shadow !== sentMain) {
        sentMain = shadow;
        message.shadow = shadow ? { main: shadow, subagents: replayed?.main === shadow ? replayed.subagents : {} } : null;
      }
      port.postMessage(message);
    },
    ...(input.throttleMs !== undefined ? { throttleMs: input.throttleMs } : {}),
    ...(input.pollMs !== undefined ? { tail: { pollMs: input.pollMs } } : {}),
  });
  port.on('message', (m: ToWorker) => {
    if (m.kind === 'flush') session.flush();
    else void session.idle().then(() => port.postMessage({ kind: 'idle', id: m.id } satisfies FromWorker));
  });
  session.start();
}

if (!isMainThread && (workerData as Partial<WorkerInput> | null)?.strataLiveWorker === true) workerMain(workerData as WorkerInput);
