import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type LiveSessionDetailDto, type LiveSessionDto, StrataError, type StrataEvent } from '../contract';
import type { StrategyName } from '../strategies/Strategy';
import { LiveSession, type LiveSessionSnapshot } from '../traces/live/LiveSession';
import type { ReplayResult } from '../traces/replay/ReplayTypes';
import { recordedModel } from '../traces/replay/replayDefaults';
import { runReplayJobs } from '../traces/replay/replayWorker';
import type { TraceEvent } from '../traces/TraceEvent';

/** Sessions attached at once (each follows a file and replays in its own worker thread). */
export const ATTACHED_MAX = 8;
/** At most one `session.updated` per session per this many milliseconds. */
export const SESSION_EVENT_MS = 100;
export const DEFAULT_ATTACH_BUDGET = 100_000;

export interface LiveSessionsOptions {
  emit(event: StrataEvent): void;
  /** The replay worker's own build entry in a bundled host (see `RunReplayJobsOptions.workerUrl`). */
  workerUrl?: URL | undefined;
  /** Replays a session's events (default: one job of `runReplayJobs`, in a worker thread). */
  replay?: (events: readonly TraceEvent[], o: { path: string; strategy: StrategyName; budget: number }) => Promise<ReplayResult>;
  /** Tail and throttle timings (tests shorten them). */
  pollMs?: number;
  throttleMs?: number;
}

interface Attached {
  id: string;
  strategy: StrategyName;
  budget: number;
  live: LiveSession;
  last: LiveSessionSnapshot;
  /** When the last `session.updated` went out, and a pending one. */
  sentAt: number;
  pending: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The host's attached Claude Code and Codex sessions (`[live-attach]`): each a `LiveSession` over
 * its file, read-only, with its counterfactual replay in a worker thread; `session.updated` goes
 * out at most every {@link SESSION_EVENT_MS} per session. Only figures leave the host: no content of
 * the session (which may hold keys or tokens) is in any DTO or in the catalog.
 */
export class LiveSessions {
  readonly #all = new Map<string, Attached>();
  #next = 1;

  constructor(private readonly o: LiveSessionsOptions) {}

  attach(args: { path: string; strategy?: StrategyName | undefined; budget?: number | undefined }): LiveSessionDto {
    const path = resolve(args.path);
    if (path.includes('\0')) throw new StrataError('invalid_args', `${JSON.stringify(path)} contains a NUL byte.`);
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) throw new StrataError('not_found', `No session file at ${path}.`);
    if (!info.isFile() || !path.endsWith('.jsonl')) throw new StrataError('invalid_args', `${path} is not a session file; attach a Claude Code or Codex .jsonl session.`);
    for (const a of this.#all.values()) if (a.live.path === path && a.strategy === (args.strategy ?? 'variable') && a.budget === (args.budget ?? DEFAULT_ATTACH_BUDGET)) return this.toDto(a);
    if (this.#all.size >= ATTACHED_MAX) throw new StrataError('conflict', `${ATTACHED_MAX} sessions are attached already; detach one first.`);
    const id = `ses-${this.#next++}`;
    const strategy = args.strategy ?? 'variable';
    const budget = args.budget ?? DEFAULT_ATTACH_BUDGET;
    const replay = this.o.replay ?? ((events, o) => this.replayInWorker(events, o));
    const attached: Attached = { id, strategy, budget, live: undefined as unknown as LiveSession, last: undefined as unknown as LiveSessionSnapshot, sentAt: 0, pending: undefined };
    attached.live = new LiveSession(path, {
      replay: (events) => replay(events, { path, strategy, budget }),
      onUpdate: (snapshot) => {
        attached.last = snapshot;
        this.announce(attached);
      },
      throttleMs: this.o.throttleMs,
      tail: { pollMs: this.o.pollMs },
    });
    attached.last = attached.live.snapshot();
    this.#all.set(id, attached);
    attached.live.start();
    return this.toDto(attached);
  }

  detach(sessionId: string): void {
    const a = this.get(sessionId);
    a.live.stop();
    clearTimeout(a.pending);
    this.#all.delete(sessionId);
    this.o.emit({ name: 'session.detached', payload: { sessionId } });
  }

  list(): LiveSessionDto[] {
    return [...this.#all.values()].map((a) => this.toDto(a));
  }

  detail(sessionId: string): LiveSessionDetailDto {
    const a = this.get(sessionId);
    const s = a.last;
    return {
      session: this.toDto(a),
      real: s.real.perStep.map((r) => ({ step: r.step, prompt: r.prompt, input: r.input, cacheRead: r.cacheRead, cacheWrite: r.cacheWrite, output: r.output })),
      shadow: (s.shadow?.steps ?? []).map((m) => ({
        step: m.step,
        promptTokens: m.promptTokens,
        input: m.input,
        cacheRead: m.cacheRead,
        cacheWrite: m.cacheWrite,
        prefixReuse: m.prefixReuse,
        neededReferenceRecall: m.neededReferenceRecall ?? null,
        generation: m.generation,
      })),
    };
  }

  /** Resolves once every attached session has read its file and replayed it (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.#all.values()].map((a) => a.live.idle()));
  }

  close(): void {
    for (const a of this.#all.values()) {
      a.live.stop();
      clearTimeout(a.pending);
    }
    this.#all.clear();
  }

  private get(sessionId: string): Attached {
    const a = this.#all.get(sessionId);
    if (!a) throw new StrataError('not_found', `No attached session ${sessionId}.`);
    return a;
  }

  private announce(a: Attached): void {
    if (a.pending) return;
    const wait = Math.max(0, a.sentAt + SESSION_EVENT_MS - Date.now());
    a.pending = setTimeout(() => {
      a.pending = undefined;
      if (!this.#all.has(a.id)) return;
      a.sentAt = Date.now();
      this.o.emit({ name: 'session.updated', payload: { session: this.toDto(a) } });
    }, wait);
  }

  private async replayInWorker(events: readonly TraceEvent[], o: { path: string; strategy: StrategyName; budget: number }): Promise<ReplayResult> {
    // Priced as the recording agent's provider would bill it: OpenAI's automatic cache for GPT and o-series models.
    const provider = /^(gpt|o\d|codex)/i.test(recordedModel(events) ?? '') ? 'openai' : 'anthropic';
    const [done] = await runReplayJobs([{ trace: o.path, events, strategy: o.strategy, budget: o.budget, provider }], { workerUrl: this.o.workerUrl });
    if (!done?.result) throw new Error(done?.error ?? 'the replay worker gave no result');
    return done.result;
  }

  private toDto(a: Attached): LiveSessionDto {
    const s = a.last;
    const t = s.shadow?.totals;
    return {
      sessionId: a.id,
      path: a.live.path,
      strategy: a.strategy,
      budget: a.budget,
      status: s.status,
      message: s.message,
      lines: s.lines,
      events: s.events,
      model: s.real.model ?? null,
      real: { steps: s.real.steps, promptTokens: s.real.promptTokens, input: s.real.input, cacheRead: s.real.cacheRead, cacheWrite: s.real.cacheWrite, output: s.real.output, hitRate: s.real.hitRate },
      shadow: t
        ? {
            steps: t.steps,
            promptTokens: t.promptTokens,
            input: t.input,
            cacheRead: t.cacheRead,
            cacheWrite: t.cacheWrite,
            output: t.output,
            hitRate: t.hitRate,
            prefixReuse: t.prefixReuse,
            neededReferenceRecall: t.neededReferenceRecall ?? null,
            generation: t.generations,
            refreshes: t.refreshes,
            replayedEvents: s.shadowEvents,
          }
        : null,
      shadowError: s.shadowError,
    };
  }
}
