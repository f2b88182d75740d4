import { DEFAULT_ATTACH_BUDGET } from '../shared/limits';
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { type AgentDetailDto, type AgentDto, type AgentStatus, type CallDto, type GenerationDiffDto, type GenerationDto, type GenerationSummaryDto, type LiveSessionDetailDto, type LiveSessionDto, StrataError, type StrataEvent, type UsageDto } from '../contract';
import { diffGenerations } from '../generations/diffGenerations';
import { type Generation, generationTokens } from '../generations/Generation';
import { clientContextWindow } from '../traces/clientContextWindow';
import { sessionDone } from '../traces/turnEnded';
import type { ContextItem } from '../items/ContextItem';
import { cacheHitRate } from '../metrics/cacheHitRate';
import { costUsd, listPriceOf, priceNote, type BilledTokens } from '../pricing/costUsd';
import { type Clock, systemClock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import { systemScheduler } from '../ports/systemScheduler';
import { maskDeep, maskSecrets } from '../privacy/maskSecrets';
import type { StrategyName } from '../strategies/Strategy';
import { LiveSession, type LiveSessionSnapshot } from '../node/traces/live/LiveSession';
import { LiveSessionThread, type FollowedSession } from '../node/traces/live/liveSessionThread';
import type { SessionReplay } from '../node/traces/live/replaySession';
import type { RecordedTruth } from '../traces/replay/recordedTruth';
import type { ReplayResult } from '../traces/replay/ReplayTypes';
import type { TraceEvent } from '../traces/TraceEvent';
import { toGenerationDiffDto, toGenerationDto, toGenerationSummary } from './engineDtos';

/** Sessions attached at once (each follows a file and replays in its own worker thread). */
export const ATTACHED_MAX = 8;
/** At most one `session.updated` per session per this many milliseconds. */
export const SESSION_EVENT_MS = 100;
/** A session whose last line is older than this is shown as waiting rather than running. */
export const SESSION_ACTIVE_MS = 60_000;
/** How often the attached sessions' agent statuses are looked at again. */
export const STATUS_CHECK_MS = 5_000;
/** Recorded calls `getUsage` returns at most for a session agent, as for a native one. */
const USAGE_CALLS_MAX = 500;


export interface LiveSessionsOptions {
  emit(event: StrataEvent): void;
  /** The live worker's own build entry in a bundled host (`out/main/liveWorker.js`; see `liveSessionThread.ts`). */
  workerUrl?: URL | undefined;
  /**
   * Replays a session's events, main agent and subagents, in the host's thread, which then follows
   * the session too (tests that time the replay themselves). Default: each session is followed and
   * replayed in a worker thread of its own (`[live-thread]`).
   */
  replay?: (events: readonly TraceEvent[], o: { path: string; strategy: StrategyName; budget: number }) => Promise<SessionReplay>;
  /**
   * Clock of `updatedAt`, of running/waiting and of the `session.updated` spacing (the host's; default
   * the system clock). A session followed in its own thread stamps its lines with the system clock.
   */
  clock?: Clock;
  /**
   * Timers of the `session.updated` spacing and of the status checks (the host's; default the real
   * ones); a session followed in the host's thread (`replay`) runs its tail and throttle on it too.
   */
  scheduler?: Scheduler;
  /** Tail and throttle timings (default 250 and 100 ms). */
  pollMs?: number;
  throttleMs?: number;
}

interface Attached {
  id: string;
  strategy: StrategyName;
  budget: number;
  live: FollowedSession;
  last: LiveSessionSnapshot;
  /** When the last `session.updated` went out, and a pending one. */
  sentAt: number;
  pending: (() => void) | undefined;
  /** The subagents' replays that came with the main one now in `last.shadow`. */
  subShadows: Record<string, ReplayResult>;
  /** Bumped with every snapshot (`LiveSessionDto.revision`). */
  revision: number;
  /** Per agent of the session: its latest figures (JSON) with their revision, and the revision last sent in `agent.updated`. */
  revs: Map<string, { key: string; revision: number; updatedAt: string }>;
  emitted: Map<string, number>;
}

/** One agent of an attached session: the main agent (key '') or a subagent. */
interface SessionAgent {
  agentId: string;
  key: string;
  parent: string | null;
  task: string;
  done: boolean;
  real: RecordedTruth;
  shadow: ReplayResult | null;
}

/**
 * The host's attached Claude Code and Codex sessions (`[live-attach]`): each a `LiveSession` over
 * its file, read-only, with its counterfactual replay in a worker thread; `session.updated` goes
 * out at most every {@link SESSION_EVENT_MS} per session, with `agent.updated` for each of its agents
 * whose figures changed. The session's agents (`<sessionId>`, `<sessionId>/<subagent>`) get the same
 * inspector, diff and chart commands as native ones, from the shadow replay's captured generations;
 * every text of the session that leaves the host is masked (`[mask-secrets]`), and nothing of it is
 * written to the catalog or to the session's files.
 */
export class LiveSessions {
  readonly #all = new Map<string, Attached>();
  readonly #attachedAt = new Map<string, number>();
  #next = 1;
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;

  /** Stops re-checking the agents' statuses; set while sessions are attached: a session that stops writing turns from running to waiting without a line to tell. */
  #stopTick: (() => void) | undefined;

  constructor(private readonly o: LiveSessionsOptions) {
    this.#clock = o.clock ?? systemClock;
    this.#scheduler = o.scheduler ?? systemScheduler;
  }

  private watchStatuses(): void {
    if (this.#stopTick || this.#all.size === 0) return;
    this.#stopTick = this.#scheduler.every(STATUS_CHECK_MS, () => {
      if (this.#all.size === 0) {
        this.#stopTick?.();
        this.#stopTick = undefined;
        return;
      }
      for (const a of this.#all.values()) {
        if (this.sessionAgents(a).some((g) => a.emitted.get(g.agentId) !== this.agentDto(a, g).revision)) this.announce(a);
      }
    });
  }

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
    const attached: Attached = { id, strategy, budget, live: undefined as unknown as FollowedSession, last: undefined as unknown as LiveSessionSnapshot, sentAt: 0, pending: undefined, subShadows: {}, revs: new Map(), emitted: new Map(), revision: 0 };
    const onUpdate = (snapshot: LiveSessionSnapshot) => {
      attached.last = snapshot;
      attached.revision++;
      this.announce(attached);
    };
    const replay = this.o.replay;
    attached.live = replay
      ? new LiveSession(path, {
          replay: async (events) => {
            const r = await replay(events, { path, strategy, budget });
            // Kept beside the main replay, which the snapshot carries from the moment this resolves.
            attached.subShadows = r.subagents;
            return r.main;
          },
          onUpdate,
          throttleMs: this.o.throttleMs,
          tail: { pollMs: this.o.pollMs },
          clock: this.#clock,
          scheduler: this.#scheduler,
        })
      : new LiveSessionThread(path, {
          strategy,
          budget,
          onUpdate,
          onShadows: (subagents) => (attached.subShadows = subagents),
          workerUrl: this.o.workerUrl,
          pollMs: this.o.pollMs,
          throttleMs: this.o.throttleMs,
        });
    attached.last = attached.live.snapshot();
    this.#all.set(id, attached);
    this.#attachedAt.set(id, this.#clock.now());
    attached.live.start();
    this.watchStatuses();
    return this.toDto(attached);
  }

  detach(sessionId: string): void {
    const a = this.get(sessionId);
    a.live.stop();
    a.pending?.();
    this.#all.delete(sessionId);
    this.#attachedAt.delete(sessionId);
    this.o.emit({ name: 'session.detached', payload: { sessionId } });
  }

  list(): LiveSessionDto[] {
    return [...this.#all.values()].map((a) => this.toDto(a));
  }

  detail(sessionId: string): LiveSessionDetailDto {
    const a = this.get(sessionId);
    const s = a.last;
    const realRates = listPriceOf(s.real.model)?.perMTok;
    const shadowRates = s.shadow ? listPriceOf(s.shadow.model)?.perMTok : undefined;
    const promptUsd = (t: BilledTokens, rates: typeof realRates) => (rates ? costUsd(t, rates).prompt : null);
    return {
      session: this.toDto(a),
      real: s.real.perStep.map((r) => ({ step: r.step, prompt: r.prompt, input: r.input, cacheRead: r.cacheRead, cacheWrite: r.cacheWrite, output: r.output, promptUsd: promptUsd(r, realRates) })),
      shadow: (s.shadow?.steps ?? []).map((m) => ({
        step: m.step,
        promptTokens: m.promptTokens,
        input: m.input,
        cacheRead: m.cacheRead,
        cacheWrite: m.cacheWrite,
        prefixReuse: m.prefixReuse,
        neededReferenceRecall: m.neededReferenceRecall ?? null,
        generation: m.generation,
        promptUsd: promptUsd(m, shadowRates),
      })),
      compactions: [...s.compactions],
      generations: (s.shadow?.steps ?? []).flatMap((m) => (m.boundary === 'rebuild' || m.boundary === 'refresh' ? [{ step: m.step, generation: m.generation, kind: m.boundary }] : [])),
    };
  }

  /** Has every attached session read what is new and converted it now, without waiting for its poll or throttle (tests). */
  flush(): void {
    for (const a of this.#all.values()) a.live.flush();
  }

  /** Resolves once every attached session has read its file and replayed it (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.#all.values()].map((a) => a.live.idle()));
  }

  close(): void {
    this.#stopTick?.();
    this.#stopTick = undefined;
    for (const a of this.#all.values()) {
      a.live.stop();
      a.pending?.();
    }
    this.#all.clear();
  }

  // ---- the sessions' agents, for the agent tree, the inspector, the diff and the charts ----------

  /** Every agent of every attached session (main agents first, each followed by its subagents). */
  agents(): AgentDto[] {
    return [...this.#all.values()].flatMap((a) => this.sessionAgents(a).map((g) => this.agentDto(a, g)));
  }

  /** The attached session an agent id belongs to, if any. */
  owner(agentId: string): string | undefined {
    const sessionId = agentId.split('/', 1)[0] as string;
    return this.#all.has(sessionId) ? sessionId : undefined;
  }

  /** Whether an item id is one of a session's (`<agentId>#<item>`): such items are read-only. */
  ownsItem(itemId: string): boolean {
    const hash = itemId.indexOf('#');
    return hash > 0 && this.owner(itemId.slice(0, hash)) !== undefined;
  }

  /** Refuses a change to a session agent or item: attached sessions are watched, never driven. */
  refuseChange(what: string): never {
    throw new StrataError('conflict', `${what} belongs to an attached session, which Strata watches read-only: it cannot be changed.`);
  }

  agentDetail(agentId: string): AgentDetailDto {
    const [a, g] = this.agent(agentId);
    const all = this.sessionAgents(a);
    return { agent: this.agentDto(a, g), children: all.filter((c) => c.parent === agentId).map((c) => c.agentId), recentLog: [] };
  }

  generations(agentId: string): GenerationSummaryDto[] {
    const [, g] = this.agent(agentId);
    return this.captured(g).map((x) => maskDeep(toGenerationSummary(x)));
  }

  generation(agentId: string, number: number | undefined, droppedLimit: number): GenerationDto {
    const [, g] = this.agent(agentId);
    const all = this.captured(g);
    const current = all.at(-1)?.number ?? 0;
    const wanted = number ?? current;
    if (wanted === 0) throw new StrataError('not_found', `Strata has not replayed ${agentId} yet: its counterfactual context is built once the session's first step has been read.`);
    const gen = all.find((x) => x.number === wanted);
    if (!gen) throw new StrataError('not_found', `Agent "${agentId}" has no generation ${wanted}.`);
    const prompt = wanted === current ? g.shadow?.capture?.prompt : undefined;
    return maskDeep(toGenerationDto(gen, droppedLimit, prompt ? { ...prompt.layers, prefixHash: prompt.prefixHash } : null));
  }

  diff(agentId: string, from: number, to: number): GenerationDiffDto {
    const [, g] = this.agent(agentId);
    const all = this.captured(g);
    const pick = (n: number) => {
      const gen = all.find((x) => x.number === n);
      if (!gen) throw new StrataError('not_found', `Agent "${agentId}" has no generation ${n}.`);
      return gen;
    };
    return maskDeep(toGenerationDiffDto(diffGenerations(pick(from), pick(to))));
  }

  /** The recorded calls (what the provider billed) of a session agent, newest `limit`, oldest first. */
  usage(agentId: string, limit = USAGE_CALLS_MAX): UsageDto {
    const [, g] = this.agent(agentId);
    const generationAt = new Map((g.shadow?.steps ?? []).map((m) => [m.step, m.generation]));
    const steps = g.real.perStep;
    const calls: CallDto[] = steps.slice(-Math.min(limit, USAGE_CALLS_MAX)).map((r, i, shown) => {
      const usage = { input: r.input, cacheRead: r.cacheRead, cacheWrite: r.cacheWrite, output: r.output };
      return {
        agentId,
        turn: steps.length - shown.length + i + 1,
        generation: generationAt.get(r.step) ?? 1,
        // A trace without times: one step every 30 s from the attach, so the time axis keeps the order.
        at: r.at ?? (this.#attachedAt.get(agentId.split('/', 1)[0] as string) ?? 0) + (steps.length - shown.length + i) * 30_000,
        usage,
        modeled: false,
        hitRate: cacheHitRate(usage),
        prefixReuse: null,
        reuseBytes: null,
        retries: 0,
      };
    });
    const t = g.real;
    return { agentId, calls, totals: { input: t.input, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, output: t.output, calls: t.callsWithUsage, hitRate: t.hitRate } };
  }

  private agent(agentId: string): [Attached, SessionAgent] {
    const sessionId = this.owner(agentId);
    const a = sessionId === undefined ? undefined : this.#all.get(sessionId);
    const g = a && this.sessionAgents(a).find((x) => x.agentId === agentId);
    if (!a || !g) throw new StrataError('not_found', `No agent "${agentId}" in the attached sessions.`);
    return [a, g];
  }

  private sessionAgents(a: Attached): SessionAgent[] {
    const s = a.last;
    const main: SessionAgent = { agentId: a.id, key: '', parent: null, task: s.task, done: false, real: s.real, shadow: s.shadow };
    return [main, ...s.subagents.map((sub) => ({ agentId: `${a.id}/${sub.key}`, key: sub.key, parent: a.id, task: sub.task, done: sub.done, real: sub.real, shadow: a.subShadows[sub.key] ?? null }))];
  }

  /** The shadow's generations relabelled as the session agent's, with its item ids made session-owned (`<agentId>#<id>`). */
  private captured(g: SessionAgent): Generation[] {
    const gens = g.shadow?.capture?.generations ?? [];
    const item = (it: ContextItem): ContextItem => ({ ...it, id: `${g.agentId}#${it.id}`, provenance: { ...it.provenance, agentId: g.agentId } });
    return gens.map((x) => ({
      ...x,
      agentId: g.agentId,
      included: x.included.map((e) => ({ ...e, item: item(e.item) })),
      dropped: x.dropped.map((e) => ({ ...e, item: item(e.item) })),
      compressed: x.compressed.map((c) => ({ ...c, itemId: `${g.agentId}#${c.itemId}` })),
    }));
  }

  private status(a: Attached, g: SessionAgent): AgentStatus {
    const s = a.last;
    if (s.status === 'error' || s.status === 'deleted') return 'failed';
    if (g.done) return 'done';
    if (s.status === 'truncated' || s.status === 'rotated') return 'refreshing';
    const now = this.#clock.now();
    const quiet = s.lastLineAt === null ? Infinity : now - s.lastLineAt;
    // The main agent is done once its last turn ended and its file stopped growing; a new line opens it again.
    if (g.parent === null && sessionDone(s.turnEnded, quiet)) return 'done';
    return quiet < SESSION_ACTIVE_MS ? 'running' : 'waiting';
  }

  private agentDto(a: Attached, g: SessionAgent): AgentDto {
    const last = g.real.perStep.at(-1);
    const model = g.real.model ?? a.last.real.model ?? null;
    const window = clientContextWindow({ recorded: a.last.contextWindow, model, largestPrompt: Math.max(0, ...g.real.perStep.map((r) => r.prompt)) });
    const current = g.shadow?.capture?.generations.at(-1);
    const generation = Math.max(1, g.shadow?.totals.generations ?? 1);
    const figures = {
      agentId: g.agentId,
      parent: g.parent,
      role: g.parent === null ? ('primary' as const) : ('worker' as const),
      task: maskSecrets((g.task || (g.parent === null ? basename(a.live.path) : `subagent ${g.key}`)).slice(0, 500)),
      model: model ?? 'unknown',
      status: this.status(a, g),
      generation,
      // Strata's figures (its replay's current generation against the replay budget), as the Context tab shows them;
      // the real client's context is apart, against its own window.
      tokens: current ? generationTokens(current) : 0,
      budget: a.budget,
      recorded: {
        client: a.last.client === 'claude' ? ('Claude Code' as const) : a.last.client === 'codex' ? ('Codex' as const) : null,
        tokens: last?.prompt ?? 0,
        window: window?.tokens ?? null,
        windowSource: window?.source ?? null,
      },
      usage: { input: g.real.input, cacheRead: g.real.cacheRead, cacheWrite: g.real.cacheWrite, output: g.real.output },
      cacheHitRate: g.real.hitRate,
      // How the shadow's generation began, as for a native agent (`[agent-boundary]`).
      boundary: current && current.number === generation ? { kind: current.boundary.kind, reason: maskSecrets(current.boundary.reason) } : null,
      // Its errors are the real client's, in its file; the host logs none for it.
      lastError: null,
      sessionId: a.id,
    };
    const key = JSON.stringify(figures);
    const had = a.revs.get(g.agentId);
    const entry = had && had.key === key ? had : { key, revision: (had?.revision ?? 0) + 1, updatedAt: new Date(this.#clock.now()).toISOString() };
    a.revs.set(g.agentId, entry);
    return { ...figures, revision: entry.revision, updatedAt: entry.updatedAt };
  }

  private get(sessionId: string): Attached {
    const a = this.#all.get(sessionId);
    if (!a) throw new StrataError('not_found', `No attached session ${sessionId}.`);
    return a;
  }

  private announce(a: Attached): void {
    if (a.pending) return;
    const wait = Math.max(0, a.sentAt + SESSION_EVENT_MS - this.#clock.now());
    a.pending = this.#scheduler.after(wait, () => {
      a.pending = undefined;
      if (!this.#all.has(a.id)) return;
      a.sentAt = this.#clock.now();
      this.o.emit({ name: 'session.updated', payload: { session: this.toDto(a) } });
      // The session's agents in the tree: only those whose figures changed.
      for (const g of this.sessionAgents(a)) {
        const agent = this.agentDto(a, g);
        if (a.emitted.get(agent.agentId) === agent.revision) continue;
        a.emitted.set(agent.agentId, agent.revision);
        this.o.emit({ name: 'agent.updated', payload: { agent } });
      }
    });
  }

  private toDto(a: Attached): LiveSessionDto {
    const s = a.last;
    const shadow = s.shadow;
    const t = shadow?.totals;
    return {
      sessionId: a.id,
      revision: a.revision,
      path: a.live.path,
      strategy: a.strategy,
      budget: a.budget,
      status: s.status,
      message: maskSecrets(s.message),
      lines: s.lines,
      events: s.events,
      model: s.real.model ?? null,
      priceNote: s.real.model ? priceNote(s.real.model) : 'the recording names no model to price',
      real: { steps: s.real.steps, promptTokens: s.real.promptTokens, input: s.real.input, cacheRead: s.real.cacheRead, cacheWrite: s.real.cacheWrite, output: s.real.output, hitRate: s.real.hitRate, promptUsd: s.real.costUsd?.prompt ?? null },
      shadow: shadow && t
        ? {
            steps: t.steps,
            promptTokens: t.promptTokens,
            input: t.input,
            cacheRead: t.cacheRead,
            cacheWrite: t.cacheWrite,
            output: t.output,
            hitRate: t.hitRate,
            promptUsd: t.costUsd?.prompt ?? null,
            prefixReuse: t.prefixReuse,
            neededReferenceRecall: t.neededReferenceRecall ?? null,
            generation: t.generations,
            refreshes: t.refreshes,
            replayedEvents: s.shadowEvents,
            provider: shadow.provider,
          }
        : null,
      shadowError: s.shadowError === null ? null : maskSecrets(s.shadowError),
    };
  }
}
