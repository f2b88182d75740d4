import { type Clock, systemClock } from '../../../ports/Clock';
import type { Scheduler } from '../../../ports/Scheduler';
import { systemScheduler } from '../../../ports/systemScheduler';
import { importClaudeSessionFiles, listSubagentFiles } from '../claudeSubagentFiles';
import { importCodexSessionFiles, listCodexSubagents } from '../codexSubagentFiles';
import { detectRecordsFormat } from '../../../traces/detectTraceFormat';
import { importTraceText } from '../../../traces/importTrace';
import { jsonLinesText, MAX_TRACE_LINE_BYTES } from '../../../traces/jsonText';
import type { TraceEvent } from '../../../traces/TraceEvent';
import { TraceImportError } from '../../../traces/TraceEvent';
import { recordedTruth, type RecordedTruth } from '../../../traces/replay/recordedTruth';
import type { ReplayResult } from '../../../traces/replay/ReplayTypes';
import { LiveTail, type LiveTailOptions, type TailStatus } from './LiveTail';
import { ParsedLines } from './ParsedLines';
import { turnEnded } from '../../../traces/turnEnded';
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
  /** Lines over the line cap, read past and left out (`[live-line-cap]`): the first ones, with their file, line and size. */
  skippedLines: SkippedLine[];
  events: number;
  /** When the last complete line arrived (ms since the epoch), null before the first. */
  lastLineAt: number | null;
  /** The main agent's first real request (raw: views mask it), '' when none yet. */
  task: string;
  /** The tool that wrote the file, once its lines tell. */
  client: 'claude' | 'codex' | null;
  /** The last turn in the file has ended (`turnEnded`): with the file quiet, the session is done. */
  turnEnded: boolean;
  /** The context window the file records the client ran with (Codex), null when it records none. */
  contextWindow: number | null;
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

/** A line left out because it is longer than the line cap. */
export interface SkippedLine {
  file: string;
  line: number;
  bytes: number;
}

/** Skipped lines listed by a snapshot; more are counted in its message. */
const SKIPPED_LISTED = 20;

export interface LiveSessionOptions {
  /** Replays the events under the attached strategy and budget (the host runs it in a worker thread). */
  replay(events: readonly TraceEvent[]): Promise<ReplayResult>;
  /** Hears every new snapshot (the host turns them into `session.updated` events, batched). */
  onUpdate(snapshot: LiveSessionSnapshot): void;
  /** At most one re-import per this many milliseconds while lines arrive (default 100). */
  throttleMs?: number;
  /** The tails' options; they run on the session's scheduler. */
  tail?: Omit<LiveTailOptions, 'scheduler'>;
  /** When lines arrive, when the file started over and how long a conversion took (default: the system clock). */
  clock?: Clock;
  /** The throttle, the tails' polls and the look for new subagent files (default: the real timers). */
  scheduler?: Scheduler;
}

/**
 * An attached Claude Code or Codex session: follows its file and its subagents' files (`LiveTail`,
 * read-only; new subagent files are looked for on every poll), parses each complete line once as it
 * arrives and converts the parsed lines to events again (throttled) for the real figures, and keeps
 * one counterfactual replay of everything so far running at a time, started again when more events
 * came in meanwhile. Converting and replaying the whole prefix, rather than patching events, is
 * what makes the attached view converge to the one-shot import of the finished file; parsing only
 * new lines is what keeps a large session's appends cheap (`[live-incremental]`).
 */
export class LiveSession {
  private readonly main: ParsedLines;
  private skipped: SkippedLine[] = [];
  private skippedTotal = 0;
  /** How long the last conversion took (ms): the next waits at least four times that, so the host stays responsive. */
  private lastImportMs = 0;
  private status: TailStatus = 'waiting';
  private message = '';
  private events: TraceEvent[] = [];
  private real: RecordedTruth = recordedTruth([]);
  private task = '';
  private client: 'claude' | 'codex' | null = null;
  private ended = false;
  private contextWindow: number | null = null;
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
  /** Cancels the throttled update; set while one is pending. */
  private timer: (() => void) | undefined;
  private stopped = false;
  private readonly tail: LiveTail;
  private idleWaiters: (() => void)[] = [];
  /** The session's subagents' own files, each followed like the session's (`[live-subagents]`). */
  private readonly subTails = new Map<string, { agentId: string; parentCallId?: string; label?: string; tail: LiveTail; lines: ParsedLines }>();
  private stopDiscovering: (() => void) | undefined;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  private readonly tailOptions: LiveTailOptions;

  constructor(
    readonly path: string,
    private readonly o: LiveSessionOptions,
  ) {
    this.clock = o.clock ?? systemClock;
    this.scheduler = o.scheduler ?? systemScheduler;
    this.tailOptions = { ...o.tail, scheduler: this.scheduler };
    this.main = new ParsedLines(path);
    this.tail = new LiveTail(
      path,
      {
        lines: (l) => {
          if (this.stopped) return;
          this.main.add(l);
          this.lastLineAt = this.clock.now();
          this.version++;
          this.schedule();
        },
        skipped: (line, bytes) => this.skip(path, line, bytes),
        reset: (why) => {
          this.main.clear();
          this.forgetSkipped(path);
          this.version++;
          this.resets++;
          this.lastReset = `${why} at ${new Date(this.clock.now()).toISOString().slice(11, 19)} UTC`;
          this.schedule();
        },
        status: (status, message) => {
          this.status = status;
          // A truncation or rotation is over by the next read; the message keeps saying it happened.
          this.message = status === 'following' && this.lastReset ? `${message} It started over ${this.resets === 1 ? 'once' : `${this.resets} times`} (last: ${this.lastReset}).` : message;
          this.schedule();
        },
      },
      this.tailOptions,
    );
  }

  start(): void {
    this.tail.start();
    this.followSubagents();
    this.stopDiscovering ??= this.scheduler.every(this.o.tail?.pollMs ?? 250, () => this.followSubagents());
  }

  /** Starts following every subagent file of the session not followed yet (Claude Code's `subagents/`, Codex's child rollouts). */
  private followSubagents(): void {
    if (this.stopped) return;
    // Once the session's lines tell its tool, only that tool's subagents are looked for (a Codex look-up reads the session's first line again).
    const tool = this.tool();
    for (const f of [...(tool !== 'codex' ? listSubagentFiles(this.path) : []), ...(tool !== 'claude' ? listCodexSubagents(this.path) : [])]) {
      if (this.subTails.has(f.path)) continue;
      const parentCallId = 'parentCallId' in f && typeof f.parentCallId === 'string' ? f.parentCallId : undefined;
      const entry = { agentId: f.agentId, ...(parentCallId ? { parentCallId } : {}), ...(f.label ? { label: f.label } : {}), lines: new ParsedLines(f.path), tail: undefined as unknown as LiveTail };
      entry.tail = new LiveTail(
        f.path,
        {
          lines: (l) => {
            if (this.stopped) return;
            entry.lines.add(l);
            this.version++;
            this.schedule();
          },
          skipped: (line, bytes) => this.skip(f.path, line, bytes),
          reset: () => {
            entry.lines.clear();
            this.forgetSkipped(f.path);
            this.version++;
            this.schedule();
          },
        },
        this.tailOptions,
      );
      this.subTails.set(f.path, entry);
      entry.tail.start();
    }
  }

  /** Which tool wrote the session, once its parsed lines tell (no line is parsed for it). */
  private tool(): 'claude' | 'codex' | undefined {
    if (this.main.records.length === 0) return undefined;
    try {
      const format = detectRecordsFormat(this.main.records, this.path);
      return format === 'claude-code-jsonl' ? 'claude' : format === 'codex-rollout-jsonl' ? 'codex' : undefined;
    } catch {
      return undefined;
    }
  }

  /** A line over the cap was read past: listed (the first ones) and counted, never parsed. */
  private skip(file: string, line: number, bytes: number): void {
    this.skippedTotal++;
    if (this.skipped.length < SKIPPED_LISTED) this.skipped.push({ file, line, bytes });
  }

  /** A file that started over: its skipped lines are no longer in it. */
  private forgetSkipped(file: string): void {
    const kept = this.skipped.filter((s) => s.file !== file);
    this.skippedTotal -= this.skipped.length - kept.length;
    this.skipped = kept;
  }

  /** The session's parsed lines, with its subagents' parsed lines, as one trace (no line is parsed again). */
  private importLines(): TraceEvent[] {
    const records = this.main.records;
    const subs = [...this.subTails].filter(([, e]) => e.lines.records.length > 0).map(([path, e]) => ({ path, agentId: e.agentId, ...(e.parentCallId ? { parentCallId: e.parentCallId } : {}), ...(e.label ? { label: e.label } : {}), records: e.lines.records }));
    const format = detectRecordsFormat(records, this.path);
    if (format === 'claude-code-jsonl') return importClaudeSessionFiles(records, this.path, subs).events;
    if (format === 'codex-rollout-jsonl') return importCodexSessionFiles(records, this.path, subs).events;
    return importTraceText(jsonLinesText(records), this.path, format).events;
  }

  stop(): void {
    this.stopped = true;
    this.tail.stop();
    this.stopDiscovering?.();
    this.stopDiscovering = undefined;
    for (const e of this.subTails.values()) e.tail.stop();
    this.timer?.();
    this.timer = undefined;
    // Nothing of the session is held once it is stopped: a detached session frees its memory at once.
    this.main.clear();
    for (const e of this.subTails.values()) e.lines.clear();
    this.subTails.clear();
    this.events = [];
    this.shadowOf = null;
    this.skipped = [];
    this.settle();
  }

  snapshot(): LiveSessionSnapshot {
    const skippedNote = this.skippedTotal === 0 ? '' : ` ${this.skippedNote()}`;
    return {
      path: this.path,
      status: this.importError ? 'error' : this.status,
      message: (this.importError ?? this.message) + skippedNote,
      lines: this.main.count,
      skippedLines: [...this.skipped],
      events: this.events.length,
      lastLineAt: this.lastLineAt,
      task: this.task,
      client: this.client,
      turnEnded: this.ended,
      contextWindow: this.contextWindow,
      subagents: this.subagents,
      compactions: this.compactions,
      real: this.real,
      shadow: this.shadow,
      shadowEvents: this.shadowEvents,
      shadowError: this.shadowError,
    };
  }

  /** What the skipped lines were, in words. */
  private skippedNote(): string {
    const first = this.skipped.map((s) => `${s.file === this.path ? '' : `${s.file} `}line ${s.line} (${(s.bytes / 2 ** 20).toFixed(1)} MiB)`).join(', ');
    const more = this.skippedTotal > this.skipped.length ? ` and ${this.skippedTotal - this.skipped.length} more` : '';
    return `${this.skippedTotal === 1 ? 'One line was' : `${this.skippedTotal} lines were`} left out, longer than the ${MAX_TRACE_LINE_BYTES / 2 ** 20} MiB a line may be: ${first}${more}.`;
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
    this.timer?.();
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
    this.timer = this.scheduler.after(Math.max(this.o.throttleMs ?? 100, 4 * this.lastImportMs), () => {
      this.timer = undefined;
      this.update();
    });
  }

  private update(): void {
    if (this.stopped) return;
    if (this.importedVersion === this.version) {
      this.o.onUpdate(this.snapshot());
      return this.settle();
    }
    this.importedVersion = this.version;
    const started = this.clock.now();
    // A malformed complete line is an error of the file, shown as its status; the last good figures stay.
    const broken = this.main.error ?? [...this.subTails.values()].find((e) => e.lines.error !== null)?.lines.error ?? null;
    if (broken !== null) this.importError = broken;
    else if (this.main.records.length === 0) {
      this.events = [];
      this.importError = null;
    } else {
      try {
        this.events = this.importLines();
        this.importError = null;
      } catch (err) {
        this.importError = err instanceof TraceImportError ? err.message : `Cannot read ${this.path}: ${(err as Error).message}`;
      }
    }
    this.lastImportMs = this.clock.now() - started;
    this.real = recordedTruth(this.events);
    this.task = sessionTask(this.events);
    this.client = this.tool() ?? null;
    this.ended = this.client === null ? false : turnEnded(this.main.records, this.client === 'claude' ? 'claude-code-jsonl' : 'codex-rollout-jsonl');
    this.contextWindow = lastContextWindow(this.events);
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

/** The context window the main thread's latest usage record names, null when none does. */
function lastContextWindow(events: readonly TraceEvent[]): number | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'usage' && e.agentId === undefined && e.contextWindow !== undefined) return e.contextWindow;
  }
  return null;
}
