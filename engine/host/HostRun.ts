import { generationTokens } from '../generations/Generation';
import type { AgentDto, AgentStatus, LogEntry, RunDto } from '../contract';
import { toAgentDto } from './toAgentDto';
import type { AgentRecord, Catalog } from '../node/catalog/Catalog';
import type { AgentRows } from './AgentRows';
import type { ContextConfig } from '../conversation/contextConfig';
import type { Summarizer } from '../conversation/Summarizer';
import type { ConversationEvent } from '../conversation/AgentConversation';
import type { Engine } from '../Engine';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ItemInput } from '../items/createItem';
import type { Clock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { ProviderRequest, Usage } from '../providers/Provider';
import { AgentRuntime, CommitError, type AgentRunStatus, type RuntimeEvent } from '../runtime/AgentRuntime';
import type { Driver, ToolBox, ToolOutcome } from '../runtime/Driver';
import type { ToolCall } from '../conversation/Message';
import type { CallRecord } from '../runtime/UsageLedger';
import type { SkillRegistry } from '../skills/SkillRegistry';
import type { Tokenizer } from '../tokens/Tokenizer';

/** What a run is: its driver, its primary agent and what it starts with. */
export interface RunSpec {
  runId: string;
  driver: 'trace' | 'model';
  label: string;
  tickMs: number;
  primary: AgentIdentity;
  /** Items in the pool before the first turn (objective, constraints). */
  seed: ItemInput[];
  makeDriver(): Driver;
  toolbox?: ToolBox;
  toolItems?: (agent: AgentIdentity, call: ToolCall, outcome: ToolOutcome, at: number) => ItemInput[];
  priceCall?: (agentId: string, request: ProviderRequest, at: number, outputTokens: number) => Usage;
  /** The conversations' summarizer (a model run uses its provider; default: extractive). */
  summarizer?: Summarizer;
  /** Run time: the clock turns are stamped with (the demo's scenario clock, or the wall clock). */
  clock: Clock;
  /** Called before each turn (the demo moves its scenario clock forward here). */
  beforeTurn?: () => void;
  /** An agent is done after this many turns (the runtime's default when absent). */
  maxTurnsPerAgent?: number;
  /**
   * When a turn's commit fails (the catalog rolled it back): `stop` leaves the run stopped;
   * `rebuild-from-catalog` replays what the catalog says was played into a fresh run and carries on.
   */
  onCommitFailure: 'rebuild-from-catalog' | 'stop';
  /** A run that finishes while ticking starts over after this many milliseconds; absent: it stays finished. */
  restartAfterFinishMs?: number;
}

export interface HostRunDeps {
  catalog: Catalog;
  /** The writer of the catalog's agent rows (the host's one `AgentRows`). */
  agents: AgentRows;
  engine: Engine;
  tokenizer: Tokenizer;
  context: ContextConfig;
  skills?: SkillRegistry;
  scheduler: Scheduler;
  /** Wall time, for catalog timestamps. */
  wallClock: Clock;
  beforeBuild?: (engine: Engine, agentId: string, now: number) => void;
  onConversationEvent?: (agentId: string, event: ConversationEvent) => void;
  /** True while a reopened run replays turns it already played: nothing is written to the catalog. */
  quiet?: () => boolean;
  /** Runtime events after they are in the catalog (the host batches them for the views). */
  onRuntimeEvent(event: RuntimeEvent, agent: AgentRecord | undefined): void;
  /** An agent record as it now stands in the catalog. */
  onAgent(agent: AgentDto): void;
  onLog(entry: LogEntry): void;
  /** The run stopped or finished (so the host can announce it). */
  onRunChanged(run: RunDto): void;
  /**
   * Catalog writes the engine makes during a turn (items, generations) are held from `open` and
   * written inside the turn's commit transaction by `flush`; `close` writes what a turn that did
   * not commit left (its built generation is real engine state).
   */
  turnScope?: { open(): void; flush(): void; close(): void };
  /** A turn's commit failed; the host rebuilds from the catalog. Called before `step` rejects. */
  onCommitFailure?: (error: CommitError) => Promise<void>;
}

/** The contract's agent status for a runtime status. */
function agentStatusOf(s: AgentRunStatus): AgentStatus {
  switch (s) {
    case 'running':
      return 'running';
    case 'done':
      return 'done';
    case 'paused':
      return 'paused';
    case 'failed':
    case 'cancelled':
      return 'failed';
    default:
      return 'waiting';
  }
}

/**
 * One run in the host: an {@link AgentRuntime} whose agents, statuses, generations, tokens and usage
 * are mirrored into the workspace catalog as they change, ticked by the scheduler while running.
 * Each completed turn writes its agent record, its log line and the run position in ONE catalog
 * transaction, so the catalog never holds half a turn. At most one turn is in flight at a time.
 */
export class HostRun {
  readonly runtime: AgentRuntime;
  #status: RunDto['status'] = 'idle';
  #reason: string | null = null;
  #turns = 0;
  #inFlight: Promise<unknown> | undefined;
  #stopTimer: () => void = () => {};
  readonly #startedAt: number;

  constructor(
    readonly spec: RunSpec,
    private readonly deps: HostRunDeps,
  ) {
    this.#startedAt = deps.wallClock.now();
    this.runtime = new AgentRuntime({
      engine: deps.engine,
      driver: spec.makeDriver(),
      tokenizer: deps.tokenizer,
      clock: spec.clock,
      context: deps.context,
      ...(spec.toolbox ? { toolbox: spec.toolbox } : {}),
      ...(spec.toolItems ? { toolItems: spec.toolItems } : {}),
      ...(spec.priceCall ? { priceCall: spec.priceCall } : {}),
      ...(spec.summarizer ? { summarizer: spec.summarizer } : {}),
      ...(spec.maxTurnsPerAgent ? { maxTurnsPerAgent: spec.maxTurnsPerAgent } : {}),
      ...(deps.skills ? { skills: deps.skills } : {}),
      ...(deps.beforeBuild ? { beforeBuild: deps.beforeBuild } : {}),
      ...(deps.onConversationEvent ? { onConversationEvent: deps.onConversationEvent } : {}),
      commit: (fn) =>
        deps.catalog.transaction(() => {
          deps.turnScope?.flush();
          return fn();
        }),
      onEvent: (e) => this.#onEvent(e),
    });
  }

  /** Put the seed items and the primary in place (in the engine and the catalog). */
  seed(): void {
    for (const item of this.spec.seed) this.deps.engine.addItem(item);
    this.runtime.addAgent(this.spec.primary);
  }

  get turns(): number {
    return this.#turns;
  }

  get status(): RunDto['status'] {
    return this.#status;
  }

  dto(): RunDto {
    return {
      runId: this.spec.runId,
      driver: this.spec.driver,
      label: this.spec.label,
      status: this.#status,
      startedAt: this.#startedAt,
      turns: this.#turns,
      agents: this.runtime.agentIds().length,
      tickMs: this.spec.tickMs,
      reason: this.#reason,
    };
  }

  /** Tick every `tickMs` until paused, stopped or finished. */
  start(): void {
    if (this.#status === 'running' || this.#status === 'stopped' || this.#status === 'finished') return;
    this.#status = 'running';
    this.#stopTimer = this.deps.scheduler.every(Math.max(1, this.spec.tickMs), () => void this.#tick());
    this.deps.onRunChanged(this.dto());
  }

  pause(): void {
    if (this.#status !== 'running') return;
    this.#stopTimer();
    this.#status = 'paused';
    this.deps.onRunChanged(this.dto());
  }

  /** Run exactly one turn now (paused or idle runs too), of `agentId` when given; resolves when it committed or failed. */
  async step(agentId?: string): Promise<void> {
    if (this.#status === 'stopped' || this.#status === 'finished') return;
    if (this.#inFlight) {
      await this.#inFlight;
      return;
    }
    const turn = this.#runOne(agentId);
    this.#inFlight = turn;
    try {
      await turn;
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** Stop: no more turns; a turn in flight is cancelled and commits nothing. */
  stop(reason = 'stopped by an operator'): void {
    if (this.#status === 'stopped' || this.#status === 'finished') return;
    this.#stopTimer();
    for (const id of this.runtime.agentIds()) if (this.runtime.status(id) === 'running') this.runtime.cancel(id, reason);
    this.#status = 'stopped';
    this.#reason = reason;
    this.deps.onRunChanged(this.dto());
  }

  /** Resolves when no turn is in flight. */
  async idle(): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
  }

  async #tick(): Promise<void> {
    if (this.#inFlight || this.#status !== 'running') return;
    try {
      await this.step();
    } catch {
      // A failed commit was handed to onCommitFailure (which rebuilds the run); nothing to add here.
    }
  }

  async #runOne(agentId?: string): Promise<void> {
    if (this.runtime.finished()) return this.#finish();
    this.spec.beforeTurn?.();
    this.deps.turnScope?.open();
    try {
      if (agentId === undefined) await this.runtime.step();
      else await this.runtime.runTurn(agentId);
    } catch (err) {
      if (err instanceof CommitError) {
        this.#stopTimer();
        this.#status = 'stopped';
        this.#reason = err.message;
        this.deps.turnScope?.close();
        await this.deps.onCommitFailure?.(err);
      }
      throw err;
    } finally {
      this.deps.turnScope?.close();
    }
    if (this.runtime.finished()) this.#finish();
  }

  #finish(): void {
    if (this.#status === 'finished' || this.#status === 'stopped') return;
    this.#stopTimer();
    this.#status = 'finished';
    this.deps.onRunChanged(this.dto());
  }

  #iso(): string {
    return new Date(this.deps.wallClock.now()).toISOString();
  }

  #log(agentId: string | null, level: LogEntry['level'], message: string): void {
    if (this.deps.quiet?.()) return;
    this.deps.onLog(this.deps.catalog.appendLog({ at: this.#iso(), level, agentId, message }));
  }

  #onEvent(e: RuntimeEvent): void {
    const { catalog, engine } = this.deps;
    if (e.type === 'turn.completed') this.#turns++;
    if (this.deps.quiet?.()) return;
    switch (e.type) {
      case 'agent.added': {
        const a = e.agent;
        const record = catalog.transaction(() => {
          const added = this.deps.agents.add({ agentId: a.agentId, parent: a.parent, role: a.role, task: a.task, model: a.model, budget: a.budget });
          this.deps.onAgent(toAgentDto(added, engine, catalog));
          if (a.parent !== null) this.#log(a.parent, 'info', `Spawned ${a.agentId} (${a.role}) for: ${a.task}${e.dependsOn.length ? ` · after ${e.dependsOn.join(', ')}` : ''}`);
          return added;
        });
        this.deps.onRuntimeEvent(e, record);
        return;
      }
      case 'agent.status': {
        if (e.status === 'running') {
          // Shown at once, stored with the turn's commit: a turn that never commits leaves no trace.
          const current = catalog.getAgent(e.agentId);
          if (current) this.deps.onAgent(toAgentDto({ ...current, status: 'running' }, engine, catalog));
          this.deps.onRuntimeEvent(e, current);
          return;
        }
        // Between its turns an agent that has started is still running for the operator; `waiting` is
        // for one that has not started yet (blocked on its dependencies, or paused before its first turn).
        const status = e.status === 'waiting' && this.runtime.turns(e.agentId) > 0 ? 'running' : agentStatusOf(e.status);
        const record = this.#putAgent(e.agentId, (r) => ({ ...r, status }));
        if (e.status === 'failed' || e.status === 'cancelled') this.#log(e.agentId, 'error', `${e.agentId} ${e.status}: ${e.reason ?? 'no reason given'}`);
        if (e.status === 'done') this.#log(e.agentId, 'info', `${e.agentId} done${this.runtime.agentIds()[0] === e.agentId ? '' : ' · report sent to its parent'}`);
        this.deps.onRuntimeEvent(e, record);
        return;
      }
      case 'context.refreshed': {
        const record = this.#putAgent(e.agentId, (r) => ({ ...r, status: 'refreshing' }));
        this.deps.onRuntimeEvent(e, record);
        return;
      }
      case 'turn.completed': {
        let record: AgentRecord | undefined;
        catalog.transaction(() => {
          record = this.#putAgent(e.agentId, (r) => {
            const g = engine.currentGeneration(e.agentId);
            const tokens = g > 0 ? generationTokens(engine.generation(e.agentId, g)) : r.tokens;
            return { ...r, generation: Math.max(1, g), tokens, usage: addUsage(r.usage, e.call.usage) };
          });
          catalog.setMeta(`run.${this.spec.runId}.turns`, String(this.#turns));
          this.#log(e.agentId, 'debug', turnLine(e.call, e.toolCalls));
        });
        this.deps.onRuntimeEvent(e, record);
        return;
      }
    }
  }

  #putAgent(agentId: string, change: (r: AgentRecord) => AgentRecord): AgentRecord | undefined {
    const next = this.deps.agents.update(agentId, change);
    if (next) this.deps.onAgent(toAgentDto(next, this.deps.engine, this.deps.catalog));
    return next;
  }
}

const addUsage = (a: Usage, b: Usage): Usage => ({ input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite, output: a.output + b.output });

function turnLine(c: CallRecord, toolCalls: number): string {
  const prompt = c.usage.input + c.usage.cacheRead + c.usage.cacheWrite;
  return `Turn ${c.turn} · gen ${c.generation} · ${toolCalls} tool call(s) · prompt ${prompt} tokens, ${Math.round(c.hitRate * 100)}% cached${c.modeled ? ' (modeled)' : ''} · prefix reuse ${Math.round(c.prefixReuse * 100)}%${retryNote(c)}`;
}

/** ` · 3 retries (1 refresh, 2 provider)`: every retry of a call, by kind (`[provider-retries-counted]`); '' without any. */
function retryNote(c: CallRecord): string {
  if (c.retries === 0) return '';
  const refreshes = c.retries - c.providerRetries;
  const parts = [refreshes > 0 ? `${refreshes} refresh` : '', c.providerRetries > 0 ? `${c.providerRetries} provider` : ''].filter(Boolean);
  return ` · ${c.retries} ${c.retries === 1 ? 'retry' : 'retries'} (${parts.join(', ')})`;
}
