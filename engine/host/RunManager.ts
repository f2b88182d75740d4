import { StrataError, type LogEntry, type ProviderSettingsDto, type RunDto, type StrataEvent, type UsageDto } from '../contract';
import type { Catalog } from '../node/catalog/Catalog';
import type { ContextConfig } from '../conversation/contextConfig';
import { Engine } from '../Engine';
import type { Clock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import { createCacheModel } from '../providers/cacheModel';
import type { Provider } from '../providers/Provider';
import type { RetryInfo } from '../node/providers/retry';
import type { AgentConversation, ConversationEvent } from '../conversation/AgentConversation';
import { ModelDriver } from '../runtime/ModelDriver';
import { modelSummarizer } from '../runtime/modelSummarizer';
import { priceWithCacheModel } from '../runtime/priceWithCacheModel';
import type { ToolBox } from '../runtime/Driver';
import type { AgentRunStatus } from '../runtime/AgentRuntime';
import { cacheHitRate } from '../metrics/cacheHitRate';
import type { SkillRegistry } from '../skills/SkillRegistry';
import type { Tokenizer } from '../tokens/Tokenizer';
import type { DemoRunScript } from '../demo/generateDemoRun';
import { demoRunSpec, DEMO_RUN_ID } from './demoRunSpec';
import type { AgentRows } from './AgentRows';
import { EventBatcher } from './EventBatcher';
import { HostRun, type RunSpec } from './HostRun';

const DEMO_POSITION_KEY = `run.${DEMO_RUN_ID}.turns`;
/** Runs listed by `listRuns` (the newest first). */
const RUNS_KEPT = 20;

const RETRY_WORDS: Partial<Record<RetryInfo['kind'], string>> = { rate_limited: 'rate limited', server: 'server error', timeout: 'timed out', connection: 'connection failed' };

export interface RunManagerDeps {
  catalog: Catalog;
  /** The one writer of the catalog's agent rows. */
  agents: AgentRows;
  tokenizer: Tokenizer;
  context: () => ContextConfig;
  skills: () => SkillRegistry | undefined;
  scheduler: Scheduler;
  wallClock: Clock;
  emit(event: StrataEvent): void;
  onLog(entry: LogEntry): void;
  /** A fresh engine on `clock` (the host wires its events to the catalog). */
  newEngine(clock: Clock): Engine;
  beforeBuild?: (engine: Engine, agentId: string, now: number) => void;
  onConversationEvent?: (agentId: string, event: ConversationEvent) => void;
  /** A provider for a model run, or a `StrataError` saying why there is none (no key…); `onRetry` hears every HTTP retry. */
  makeProvider?: (provider: 'openai' | 'anthropic', model: string, onRetry?: (info: RetryInfo) => void) => Provider;
  /** The workspace tools for a model run. */
  makeToolbox?: () => ToolBox;
  /** The pool items of a model run's tool calls (from the toolbox's full results). */
  toolItems?: RunSpec['toolItems'];
  /** Holds the engine's catalog writes during a turn until its commit (see `HostRunDeps.turnScope`). */
  turnScope?: { open(): void; flush(): void; close(): void };
  /** What the host knows about each provider (never a key). */
  providerSettings?: () => ProviderSettingsDto[];
  /** The demo's script, generated afresh for each demo run (the bundled demo, or scaled for load tests). */
  demoScript: () => DemoRunScript;
  /** A project folder of the user's own: the demo is never played into its catalog (`[run-project-folder]`). */
  projectFolder?: boolean;
}

/** What a project folder needs for a run of its own, in words (`[run-project-folder]`); the views say the same. */
const PROJECT_RUN_NEEDS =
  'A run of its own is a model run (startRun with driver "model", a provider, a model and a task): it needs a provider key in the environment (ANTHROPIC_API_KEY, or OPENAI_API_KEY with OPENAI_BASE_URL) and, for the agents to run commands, an allowlist in the folder\'s strata.toml ([tools] allow = ["npm test"]).';

/**
 * The host's runs: at most one active (running or paused) at a time, on its own engine. The demo
 * workspace plays the generated demo session through the trace driver and the provider cache model
 * and starts over when it finishes; its position is kept in the catalog, so reopening the workspace
 * replays the turns already played (quietly, writing nothing) and carries on.
 */
export class RunManager {
  #current: HostRun | undefined;
  #engine: Engine | undefined;
  #past: RunDto[] = [];
  #next = 1;
  /** True while a reopened demo replays its turns: nothing is written or announced. */
  quiet = false;
  readonly #batcher: EventBatcher;
  #restartTimer: (() => void) | undefined;
  #ready: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RunManagerDeps) {
    this.#batcher = new EventBatcher(deps.scheduler, deps.emit);
  }

  /** The engine of the current run (or of the last one). */
  get engine(): Engine | undefined {
    return this.#engine;
  }

  get current(): HostRun | undefined {
    return this.#current;
  }

  /** Resolves once a reopened demo has replayed its turns. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Flush batched events now (tests; the timer does it otherwise). */
  flush(): void {
    this.#batcher.flush();
  }

  conversation(agentId: string): AgentConversation | undefined {
    const run = this.#current;
    return run && run.runtime.agentIds().includes(agentId) ? run.runtime.conversation(agentId) : undefined;
  }

  list(): RunDto[] {
    return [...(this.#current ? [this.#current.dto()] : []), ...this.#past];
  }

  usage(agentId: string, limit = 500): UsageDto {
    const run = this.#current;
    if (!run || !run.runtime.agentIds().includes(agentId)) throw new StrataError('not_found', `Agent "${agentId}" is not in the current run.`);
    const totals = run.runtime.ledger.totals(agentId);
    return {
      agentId,
      calls: run.runtime.ledger.calls(agentId).slice(-limit).map((c) => ({ ...c, usage: { ...c.usage }, ...(c.modeledUsage ? { modeledUsage: { ...c.modeledUsage } } : {}) })),
      totals: { ...totals, hitRate: cacheHitRate(totals) },
    };
  }

  /**
   * Open the demo workspace's run: seed it if the catalog never saw it, else replay the turns it
   * already played. `tickMs` 0 leaves it paused.
   */
  openDemo(tickMs: number): void {
    const played = Number(this.deps.catalog.getMeta(DEMO_POSITION_KEY) ?? '0');
    const run = this.#demoRun(tickMs);
    if (played === 0) {
      this.deps.catalog.transaction(() => {
        this.#clearAgents();
        run.seed();
      });
      if (tickMs > 0) run.start();
      return;
    }
    this.quiet = true;
    run.seed();
    this.#ready = (async () => {
      try {
        for (let i = 0; i < played && !run.runtime.finished(); i++) await run.step();
      } finally {
        this.quiet = false;
      }
      if (tickMs > 0) run.start();
    })();
  }

  /** Start a run (`conflict` while one is active). */
  start(args: { driver: 'trace'; tickMs?: number; demoInProjectFolder?: true } | { driver: 'model'; provider: 'openai' | 'anthropic'; model: string; task: string; tickMs?: number }): RunDto {
    const active = this.#current;
    if (active && (active.status === 'running' || active.status === 'paused' || active.status === 'idle')) {
      throw new StrataError('conflict', `Run ${active.spec.runId} is ${active.status}; stop it before starting another.`);
    }
    this.#cancelRestart();
    if (args.driver === 'trace') {
      if (this.deps.projectFolder && args.demoInProjectFolder !== true) throw new StrataError('unavailable', `This workspace is a project folder, not the demo: Start does not play the demo into its catalog. ${PROJECT_RUN_NEEDS}`);
      const run = this.#demoRun(args.tickMs ?? 1500);
      this.deps.catalog.transaction(() => {
        this.#clearAgents();
        this.deps.catalog.setMeta(DEMO_POSITION_KEY, '0');
        run.seed();
      });
      run.start();
      return run.dto();
    }
    if (!this.deps.makeProvider || !this.deps.makeToolbox) throw new StrataError('unavailable', 'Model runs need a workspace folder (--workspace) with provider settings.');
    const provider = this.deps.makeProvider(args.provider, args.model, (info) => this.#logRetry(info));
    const toolbox = this.deps.makeToolbox();
    const runId = `run-${this.#next++}`;
    const clock = this.deps.wallClock;
    const engine = this.#newEngine(clock);
    const spec: RunSpec = {
      runId,
      driver: 'model',
      label: args.task.slice(0, 120),
      tickMs: args.tickMs ?? 0,
      primary: { agentId: `${runId}.primary`, parent: null, role: 'primary', taskId: `task:${runId}`, task: args.task, scope: {}, model: args.model, workspace: 'workspace', budget: this.deps.context().maxTokens },
      seed: [{ id: `${runId}:objective`, kind: 'objective', class: 'task_state', title: 'Objective', content: args.task, source: 'user_requirement', agentId: 'user', taskId: `task:${runId}`, at: clock.now(), mandatory: true }],
      makeDriver: () => new ModelDriver(provider, toolbox, { clock }),
      toolbox,
      priceCall: priceWithCacheModel(createCacheModel({ provider: args.provider }), this.deps.tokenizer),
      // With a provider configured, compaction summaries are written by the model (`[summary-model]`).
      summarizer: modelSummarizer(provider, { model: args.model, tokenizer: this.deps.tokenizer }),
      ...(this.deps.toolItems ? { toolItems: this.deps.toolItems } : {}),
      clock,
      onCommitFailure: 'stop',
    };
    const run = this.#hostRun(spec, engine);
    this.deps.catalog.transaction(() => run.seed());
    run.start();
    return run.dto();
  }

  providerSettings(): ProviderSettingsDto[] {
    return this.deps.providerSettings?.() ?? [
      { provider: 'openai', baseUrl: null, model: null, keyPresent: false },
      { provider: 'anthropic', baseUrl: null, model: null, keyPresent: false },
    ];
  }

  /** Pause, resume or cancel one agent of the current run; returns its status after. */
  controlAgent(agentId: string, action: 'pause' | 'resume' | 'cancel'): AgentRunStatus {
    const run = this.#current;
    if (!run || !run.runtime.agentIds().includes(agentId)) throw new StrataError('not_found', `Agent "${agentId}" is not in the current run.`);
    const rt = run.runtime;
    const before = rt.status(agentId);
    if (action === 'pause') rt.pause(agentId);
    else if (action === 'resume') rt.resume(agentId);
    else rt.cancel(agentId, 'cancelled by an operator');
    if (rt.status(agentId) === before && !(action === 'cancel' && before === 'cancelled')) {
      const can = action === 'pause' ? 'a waiting agent' : action === 'resume' ? 'a paused agent' : 'an agent that has not ended';
      throw new StrataError('conflict', `Agent "${agentId}" is ${before}; ${action} applies to ${can}.`);
    }
    return rt.status(agentId);
  }

  pause(runId: string): RunDto {
    const run = this.#find(runId);
    run.pause();
    return run.dto();
  }

  /** A paused run ticks again (`conflict` for a run in any other state: start a stopped one anew). */
  resume(runId: string): RunDto {
    const run = this.#find(runId);
    if (run.status !== 'paused') throw new StrataError('conflict', `Run ${runId} is ${run.status}; only a paused run resumes.`);
    run.start();
    return run.dto();
  }

  /** One turn of the run (of `agentId` when given: it must be waiting with its dependencies done). */
  async step(runId: string, agentId?: string): Promise<RunDto> {
    const run = this.#find(runId);
    if (run.status === 'stopped' || run.status === 'finished') throw new StrataError('conflict', `Run ${runId} is ${run.status}.`);
    if (agentId !== undefined) {
      if (!run.runtime.agentIds().includes(agentId)) throw new StrataError('not_found', `Agent "${agentId}" is not in run ${runId}.`);
      if (!run.runtime.runnable().includes(agentId)) throw new StrataError('conflict', `Agent "${agentId}" is ${run.runtime.status(agentId)} and cannot take a turn now.`);
    }
    await run.step(agentId);
    return run.dto();
  }

  stop(runId: string, reason?: string): RunDto {
    const run = this.#find(runId);
    run.stop(reason);
    this.#cancelRestart();
    return run.dto();
  }

  close(): void {
    this.#current?.stop('the host is shutting down');
    this.#cancelRestart();
    this.#batcher.close();
  }

  /** Every HTTP retry of a model run in the workspace log, a timed-out attempt with the time it waited (`[provider-time-limit]`). */
  #logRetry(info: RetryInfo): void {
    const secs = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
    const what =
      info.kind === 'timeout' && info.attemptTimeoutMs !== undefined
        ? `timed out: no response within ${secs(info.attemptTimeoutMs)}`
        : `${RETRY_WORDS[info.kind] ?? info.kind}${info.status !== undefined ? ` (HTTP ${info.status})` : ''}`;
    const message = `${info.provider}: attempt ${info.attempt} ${what}; retrying in ${secs(info.delayMs)}${info.fromRetryAfter ? ' as the server asked' : ''}`;
    this.deps.onLog(this.deps.catalog.appendLog({ at: new Date(this.deps.wallClock.now()).toISOString(), level: 'warn', agentId: null, message }));
  }

  #find(runId: string): HostRun {
    const run = this.#current;
    if (!run || run.spec.runId !== runId) throw new StrataError('not_found', `No active run "${runId}".`);
    return run;
  }

  #newEngine(clock: Clock): Engine {
    const engine = this.deps.newEngine(clock);
    this.#engine = engine;
    return engine;
  }

  #demoRun(tickMs: number): HostRun {
    const spec = demoRunSpec(this.deps.demoScript(), tickMs, this.deps.tokenizer);
    return this.#hostRun(spec, this.#newEngine(spec.clock));
  }

  #hostRun(spec: RunSpec, engine: Engine): HostRun {
    if (this.#current) this.#past = [this.#current.dto(), ...this.#past].slice(0, RUNS_KEPT);
    const skills = this.deps.skills();
    const run = new HostRun(spec, {
      catalog: this.deps.catalog,
      agents: this.deps.agents,
      engine,
      tokenizer: this.deps.tokenizer,
      context: this.deps.context(),
      ...(skills ? { skills } : {}),
      scheduler: this.deps.scheduler,
      wallClock: this.deps.wallClock,
      ...(this.deps.beforeBuild ? { beforeBuild: this.deps.beforeBuild } : {}),
      ...(this.deps.onConversationEvent ? { onConversationEvent: this.deps.onConversationEvent } : {}),
      quiet: () => this.quiet,
      ...(this.deps.turnScope ? { turnScope: this.deps.turnScope } : {}),
      onCommitFailure: async (err) => {
        const rebuild = spec.onCommitFailure === 'rebuild-from-catalog';
        this.deps.onLog(this.deps.catalog.appendLog({ at: new Date(this.deps.wallClock.now()).toISOString(), level: 'error', agentId: err.agentId, message: `${err.message}; ${rebuild ? 'the demo is rebuilt from the catalog' : 'the run is stopped'}` }));
        if (!rebuild) return;
        // The catalog rolled the turn back; the in-memory run may hold part of it. Replay what the
        // catalog says was played into a fresh run and carry on from there.
        this.#current = undefined;
        this.openDemo(spec.tickMs);
        await this.#ready;
      },
      onRuntimeEvent: (e) => {
        if (this.quiet) return;
        switch (e.type) {
          case 'turn.completed':
            this.#batcher.add('turn.completed', { agentId: e.agentId, turn: e.turn, generation: e.generation, toolCalls: e.toolCalls, done: e.done, at: e.call.at });
            this.#batcher.add('usage.recorded', { ...e.call, usage: { ...e.call.usage } });
            this.#batcher.latest(() => this.#progress());
            break;
          case 'agent.added':
            this.#batcher.latest(() => this.#progress());
            break;
          case 'context.refreshed':
            this.#batcher.add('context.refreshed', { agentId: e.agentId, from: e.from, to: e.to, reason: e.reason });
            break;
          default:
            break;
        }
      },
      onAgent: (agent) => {
        if (!this.quiet) this.deps.emit({ name: 'agent.updated', payload: { agent } });
      },
      onLog: (entry) => {
        if (!this.quiet) this.deps.onLog(entry);
      },
      onRunChanged: (dto) => {
        if (this.quiet) return;
        this.deps.emit({ name: 'run.changed', payload: { run: dto } });
        if (spec.restartAfterFinishMs !== undefined && dto.status === 'finished' && dto.tickMs > 0) this.#scheduleRestart(spec.restartAfterFinishMs, dto.tickMs);
      },
    });
    this.#current = run;
    return run;
  }

  /** `run.progress` of the current run while it is active (a run that ended said so in its `run.changed`). */
  #progress(): StrataEvent | undefined {
    const run = this.#current;
    if (!run || run.status === 'stopped' || run.status === 'finished') return undefined;
    return { name: 'run.progress', payload: { run: run.dto() } };
  }

  /** A generation an engine began, for the batched `generation.created`. */
  generationCreated(agentId: string, generation: number, previous: number | null, reason: string): void {
    if (!this.quiet) this.#batcher.add('generation.created', { agentId, generation, previous, reason });
  }

  /** The finished demo starts over after `afterMs` (its spec's `restartAfterFinishMs`). */
  #scheduleRestart(afterMs: number, tickMs: number): void {
    this.#cancelRestart();
    this.#restartTimer = this.deps.scheduler.every(afterMs, () => {
      this.#cancelRestart();
      if (this.#current?.status !== 'finished') return;
      this.deps.onLog(this.deps.catalog.appendLog({ at: new Date(this.deps.wallClock.now()).toISOString(), level: 'info', agentId: null, message: 'Demo run restarted' }));
      this.start({ driver: 'trace', tickMs });
    });
  }

  #cancelRestart(): void {
    this.#restartTimer?.();
    this.#restartTimer = undefined;
  }

  #clearAgents(): void {
    this.deps.agents.clear();
  }
}
