import { importClaudeSessionFiles, listSubagentFiles } from '../claudeSubagentFiles';
import { importCodexSessionFiles, listCodexSubagents } from '../codexSubagentFiles';
import { detectTraceFormat, importTraceText } from '../importTrace';
import type { TraceEvent } from '../TraceEvent';
import { TraceImportError } from '../TraceEvent';
import { recordedTruth, type RecordedTruth } from '../replay/recordedTruth';
import type { ReplayResult } from '../replay/ReplayTypes';
import { LiveTail, type LiveTailOptions, type TailStatus } from './LiveTail';
import { compactionSteps, sessionTask, subagentThreads } from './sessionThreads';

/** A subagent of the session as the views show it: its task, whether it ended, what its provider billed. */
export interface LiveSubagent {
  key: string;
  task: string;
  done: boolean;
  real: RecordedTruth;
}

/** What an attached session shows: the recorded (real) figures and Strata's counterfactual ones. */
export interface LiveSessionSnapshot {
  path: string;
  /** The file's state (`LiveTail`), or `error` when its complete lines are not a trace the importers read. */
  status: TailStatus;
  message: string;
  /** Complete lines read, and the events they import to. */
  lines: number;
  events: number;
  /** When the last complete line arrived (ms since the epoch), null before the first. */
  lastLineAt: number | null;
  /** The main agent's first input (raw: views mask it), '' when none yet. */
  task: string;
  /** The session's subagents, in order of first appearance. */
  subagents: LiveSubagent[];
  /** The recorded compactions of the main agent: the first step after each (`compactionSteps`). */
  compactions: number[];
  /** What the recording agent's provider billed, per step (main thread). */
  real: RecordedTruth;
  /** Strata's replay of the same events under the attached strategy and budget; null until the first one ends. */
  shadow: ReplayResult | null;
  /** Events the shadow has replayed (it trails `events` while a replay runs). */
  shadowEvents: number;
  /** Why the last shadow replay failed, if it did. */
  shadowError: string | null;
}

export interface LiveSessionOptions {
  /** Replays the events under the attached strategy and budget (the host runs it in a worker thread). */
  replay(events: readonly TraceEvent[]): Promise<ReplayResult>;
  /** Hears every new snapshot (the host turns them into `session.updated` events, batched). */
  onUpdate(snapshot: LiveSessionSnapshot): void;
  /** At most one re-import per this many milliseconds while lines arrive (default 100). */
  throttleMs?: number;
  tail?: LiveTailOptions;
}

/**
 * An attached Claude Code or Codex session: follows its file and its subagents' files (`LiveTail`,
 * read-only; new subagent files are looked for on every poll), re-imports
 * the complete lines as they arrive (throttled) for the real figures, and keeps one counterfactual
 * replay of everything so far running at a time, started again when more events came in meanwhile.
 * Re-importing and replaying the whole prefix, rather than patching, is what makes the attached
 * view converge to the one-shot import of the finished file.
 */
export class LiveSession {
  private lines: string[] = [];
  private status: TailStatus = 'waiting';
  private message = '';
  private events: TraceEvent[] = [];
  private real: RecordedTruth = recordedTruth([]);
  private task = '';
  private subagents: LiveSubagent[] = [];
  private compactions: number[] = [];
  private lastLineAt: number | null = null;
  /** Times the file started over (truncated or rotated), and the last one's kind and time. */
  private resets = 0;
  private lastReset: string | null = null;
  private importError: string | null = null;
  private shadow: ReplayResult | null = null;
  private shadowEvents = 0;
  private shadowError: string | null = null;
  /** The events the current shadow replayed (by identity). */
  private shadowOf: TraceEvent[] | null = null;
  /** Bumped when the lines change; what the events and the shadow were made from. */
  private version = 0;
  private importedVersion = 0;
  private shadowVersion = 0;
  private replaying = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly tail: LiveTail;
  private idleWaiters: (() => void)[] = [];
  /** The session's subagents' own files, each followed like the session's (`[live-subagents]`). */
  private readonly subTails = new Map<string, { agentId: string; parentCallId?: string; label?: string; tail: LiveTail; lines: string[] }>();
  private discoverTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly path: string,
    private readonly o: LiveSessionOptions,
  ) {
    this.tail = new LiveTail(
      path,
      {
        lines: (l) => {
          this.lines.push(...l);
          this.lastLineAt = Date.now();
          this.version++;
          this.schedule();
        },
        reset: (why) => {
          this.lines = [];
          this.version++;
          this.resets++;
          this.lastReset = `${why} at ${new Date().toISOString().slice(11, 19)} UTC`;
          this.schedule();
        },
        status: (status, message) => {
          this.status = status;
          // A truncation or rotation is over by the next read; the message keeps saying it happened.
          this.message = status === 'following' && this.lastReset ? `${message} It started over ${this.resets === 1 ? 'once' : `${this.resets} times`} (last: ${this.lastReset}).` : message;
          this.schedule();
        },
      },
      o.tail,
    );
  }

  start(): void {
    this.tail.start();
    this.followSubagents();
    this.discoverTimer = setInterval(() => this.followSubagents(), this.o.tail?.pollMs ?? 250);
  }

  /** Starts following every subagent file of the session not followed yet (Claude Code's `subagents/`, Codex's child rollouts). */
  private followSubagents(): void {
    if (this.stopped) return;
    for (const f of [...listSubagentFiles(this.path), ...listCodexSubagents(this.path)]) {
      if (this.subTails.has(f.path)) continue;
      const parentCallId = 'parentCallId' in f && typeof f.parentCallId === 'string' ? f.parentCallId : undefined;
      const entry = { agentId: f.agentId, ...(parentCallId ? { parentCallId } : {}), ...(f.label ? { label: f.label } : {}), lines: [] as string[], tail: undefined as unknown as LiveTail };
      entry.tail = new LiveTail(
        f.path,
        {
          lines: (l) => {
            entry.lines.push(...l);
            this.version++;
            this.schedule();
          },
          reset: () => {
            entry.lines = [];
            this.version++;
            this.schedule();
          },
        },
        this.o.tail,
      );
      this.subTails.set(f.path, entry);
      entry.tail.start();
    }
  }

  /** The session's complete lines, with its subagents' lines, as one trace. */
  private importLines(): TraceEvent[] {
    const text = `${this.lines.join('\n')}\n`;
    const subs = [...this.subTails].filter(([, e]) => e.lines.length > 0).map(([path, e]) => ({ path, agentId: e.agentId, ...(e.parentCallId ? { parentCallId: e.parentCallId } : {}), ...(e.label ? { label: e.label } : {}), bytes: Buffer.from(`${e.lines.join('\n')}\n`, 'utf8') }));
    if (subs.length === 0) return importTraceText(text, this.path).events;
    const format = detectTraceFormat(text, this.path);
    if (format === 'claude-code-jsonl') return importClaudeSessionFiles(text, this.path, subs).events;
    if (format === 'codex-rollout-jsonl') return importCodexSessionFiles(text, this.path, subs).events;
    return importTraceText(text, this.path, format).events;
  }

  stop(): void {
    this.stopped = true;
    this.tail.stop();
    clearInterval(this.discoverTimer);
    for (const e of this.subTails.values()) e.tail.stop();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.settle();
  }

  snapshot(): LiveSessionSnapshot {
    return {
      path: this.path,
      status: this.importError ? 'error' : this.status,
      message: this.importError ?? this.message,
      lines: this.lines.length,
      events: this.events.length,
      lastLineAt: this.lastLineAt,
      task: this.task,
      subagents: this.subagents,
      compactions: this.compactions,
      real: this.real,
      shadow: this.shadow,
      shadowEvents: this.shadowEvents,
      shadowError: this.shadowError,
    };
  }

  /** Resolves once the file has been read to its end and the shadow replayed every event (tests, benchmarks). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Read what is new and re-import now, without waiting for the throttle. */
  flush(): void {
    this.followSubagents();
    this.tail.check();
    for (const e of this.subTails.values()) e.tail.check();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.update();
  }

  private isIdle(): boolean {
    return this.stopped || (this.timer === undefined && !this.replaying && this.shadowVersion === this.importedVersion);
  }

  private settle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, this.o.throttleMs ?? 100);
  }

  private update(): void {
    if (this.stopped) return;
    if (this.importedVersion === this.version) {
      this.o.onUpdate(this.snapshot());
      return this.settle();
    }
    this.importedVersion = this.version;
    if (this.lines.length === 0) {
      this.events = [];
      this.importError = null;
    } else {
      try {
        this.events = this.importLines();
        this.importError = null;
      } catch (err) {
        // A malformed complete line is an error of the file, shown as its status; the last good figures stay.
        this.importError = err instanceof TraceImportError ? err.message : `Cannot read ${this.path}: ${(err as Error).message}`;
      }
    }
    this.real = recordedTruth(this.events);
    this.task = sessionTask(this.events);
    this.compactions = compactionSteps(this.events);
    this.subagents = subagentThreads(this.events).map((t) => ({ key: t.key, task: t.task, done: t.done, real: recordedTruth(t.events) }));
    this.o.onUpdate(this.snapshot());
    this.replayIfBehind();
    this.settle();
  }

  private replayIfBehind(): void {
    if (this.replaying || this.stopped || this.shadowVersion === this.importedVersion) return;
    const events = this.events;
    const version = this.importedVersion;
    // A re-import that failed keeps the same events: the shadow already replayed them.
    if (events === this.shadowOf) {
      this.shadowVersion = version;
      return;
    }
    if (events.length === 0) {
      this.shadow = null;
      this.shadowEvents = 0;
      this.shadowVersion = version;
      return;
    }
    this.replaying = true;
    this.o
      .replay(events)
      .then(
        (result) => {
          this.shadow = result;
          this.shadowError = null;
          this.shadowOf = events;
        },
        (err: unknown) => {
          this.shadowError = err instanceof Error ? err.message : String(err);
        },
      )
      .finally(() => {
        this.replaying = false;
        this.shadowEvents = events.length;
        this.shadowVersion = version;
        if (!this.stopped) {
          this.o.onUpdate(this.snapshot());
          // Lines that came in while this replay ran get the next one.
          this.replayIfBehind();
        }
        this.settle();
      });
  }
}
