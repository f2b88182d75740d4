import type { Envelope, LogEntry, StrataEvent } from '../contract';
import { Catalog } from '../node/catalog/Catalog';
import type { ConversationEvent } from '../conversation/AgentConversation';
import { isConfigError } from '../config/ConfigError';
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../conversation/contextConfig';
import { Engine } from '../Engine';
import type { EngineEvent } from '../EngineEvent';
import { DROPPED_KEPT, generationTokens } from '../generations/Generation';
import type { MemoryRecord } from '../memory/MemoryRecord';
import { recallAllowed } from '../memory/recall/recallPolicy';
import { recallScoped } from '../memory/recall/recallScoped';
import type { WorktreeView } from '../memory/recall/WorktreeView';
import { MemoryStore } from '../node/memoryStore/MemoryStore';
import type { Clock } from '../ports/Clock';
import type { Tokenizer } from '../tokens/Tokenizer';
import { AgentConversations } from './AgentConversations';
import { AgentRows } from './AgentRows';
import { Comparisons } from './Comparisons';
import type { ClientSession } from './ClientSession';
import { dispatch } from './dispatch';
import { toItemDto } from './engineDtos';
import { EventHub } from './EventHub';
import { createHandlers, type Handlers } from './handlers';
import { loadStrataConfig, type StrataConfig } from '../node/workspace/loadStrataConfig';
import { applySessionsConfig } from '../node/traces/live/sessionsConfig';
import { toMemoryDto } from './memoryDtos';
import { workspacePartition } from '../node/workspace/workspacePartition';
import { RunManager } from './RunManager';
import { toAgentDto } from './toAgentDto';
import type { SessionRoots } from '../node/traces/live/discoverSessions';
import { LiveSessions } from './LiveSessions';
import { GatewayService } from './GatewayService';
import type { HostOptions } from './HostOptions';
import { resolveHostOptions, type HostServices } from './resolveHostOptions';

export type { HostOptions } from './HostOptions';

/** A view connected to the host: call commands, receive subscribed events. */
export interface HostConnection {
  readonly session: ClientSession;
  /** Validate and run one contract command; never throws. */
  call(name: unknown, args: unknown): Promise<Envelope<unknown>>;
  close(): void;
}

/**
 * The Strata host: owns the workspace catalog, the agent runtime's runs with their context engine,
 * project memory and the agents' conversations; answers contract commands and pushes contract
 * events. Plain Node: Electron main and the headless web host are two thin transports over it.
 */
export class Host {
  private readonly hub = new EventHub();
  private readonly handlers: Handlers;
  private closed = false;
  private readonly clock: Clock;
  /** The one writer of the catalog's agent rows (runs and `syncAgent` alike). */
  private readonly agents: AgentRows;
  /** The engine before any run (a plain workspace that has not started one). */
  private readonly idleEngine: Engine;
  private readonly wired = new WeakSet<Engine>();
  /** Catalog writes held while a turn is open; written in the turn's commit (`turnScope`). */
  private held: (() => void)[] | undefined;
  /** A purge ran while writes were held: they land first, then the purge is applied again (`[erasure-turn]`). */
  private purgedInTurn = false;
  readonly runs: RunManager;
  readonly conversations: AgentConversations;
  readonly comparisons: Comparisons;
  /** Attached Claude Code and Codex sessions, followed live (`[live-attach]`). */
  readonly liveSessions: LiveSessions;
  /** The local gateway (issue 23), started by a view or the CLI. */
  readonly gateway: GatewayService;

  private constructor(
    readonly catalog: Catalog,
    private readonly services: HostServices,
    readonly memory: MemoryStore,
    context: ContextConfig,
    sessionRoots: SessionRoots,
  ) {
    const { clock, scheduler, tokenizer, view, settingsDir, skillsDir } = services;
    this.clock = clock;
    this.agents = new AgentRows(catalog, clock);
    const startedAt = clock.now();
    const recall = (engine: Engine, agentId: string, now: number) => Host.recallInto(engine, memory, view, services.recall, agentId, now);
    this.idleEngine = this.newEngine(tokenizer, clock);
    this.conversations = new AgentConversations({
      tokenizer,
      ...(skillsDir ? { shippedSkillsDir: skillsDir } : {}),
      ...(settingsDir ? { workspaceDir: settingsDir } : {}),
      conversations: () => {
        const run = this.runs.current;
        return new Map(run ? run.runtime.agentIds().map((id) => [id, run.runtime.conversation(id)]) : []);
      },
    });
    const emit = (e: StrataEvent) => {
      if (!this.closed) this.hub.emit(e);
    };
    this.runs = new RunManager({
      catalog,
      agents: this.agents,
      tokenizer,
      context: () => context,
      skills: () => this.conversations.registry,
      scheduler,
      wallClock: clock,
      emit,
      onLog: (entry) => this.announceLog(entry),
      newEngine: (c) => this.newEngine(tokenizer, c),
      demoScript: services.demoScript,
      projectFolder: services.demo === undefined && settingsDir !== undefined,
      turnScope: {
        open: () => {
          this.held = [];
        },
        flush: () => {
          // Inside the commit transaction: what was held goes in, and later writes go straight in too.
          const held = this.held ?? [];
          this.held = undefined;
          for (const write of held) write();
          if (this.purgedInTurn) this.memory.sweepPurged();
        },
        close: () => {
          const held = this.held ?? [];
          this.held = undefined;
          // A turn that did not commit still lands its held writes; after a purge, with the purge again in the same transaction.
          if (held.length > 0) {
            this.catalog.transaction(() => {
              held.forEach((write) => write());
              if (this.purgedInTurn) this.memory.sweepPurged();
            });
          }
          this.sweepAfterTurn();
        },
      },
      beforeBuild: recall,
      onConversationEvent: (agentId, e) => this.conversationEvent(agentId, e),
      ...services.runDeps,
    });
    this.comparisons = new Comparisons({ catalog, clock, scheduler, emit, workerUrl: services.replayWorkerUrl });
    this.liveSessions = new LiveSessions({ emit, clock, scheduler, workerUrl: services.liveWorkerUrl });
    this.gateway = new GatewayService({ settings: services.gateway, emit, scheduler, log: (level, message) => this.log(null, level, message) });
    this.handlers = createHandlers({
      catalog,
      version: services.version,
      workspaceName: services.workspaceName,
      projectFolder: services.demo === undefined && settingsDir !== undefined,
      uptimeMs: () => clock.now() - startedAt,
      engine: () => this.engine,
      syncAgent: (agentId) => this.syncAgent(agentId),
      memory,
      view,
      log: (level, message) => this.log(null, level, message),
      memoryChanged: (change, entry) => this.memoryChanged(change, entry),
      conversations: this.conversations,
      runs: this.runs,
      now: () => clock.now(),
      traceImported: (trace) => emit({ name: 'trace.imported', payload: { trace } }),
      traceRemoved: (traceId) => emit({ name: 'trace.removed', payload: { traceId } }),
      comparisons: this.comparisons,
      sessionRoots,
      liveSessions: this.liveSessions,
      nativeBinding: services.nativeBinding,
      gateway: this.gateway,
    });
  }

  /**
   * Open the catalog; for the demo workspace, start (or, reopened, replay and continue) the demo run
   * through the trace driver and the provider cache model.
   */
  static open(options: HostOptions): Host {
    const services = resolveHostOptions(options);
    const catalog = Catalog.open(services.catalogPath, { nativeBinding: services.nativeBinding });
    try {
      // A row the intake refuses on read (written around it) is left out and said in the log once.
      let unreadable: ((message: string) => void) | undefined;
      const memory = MemoryStore.open(catalog, {
        ...workspacePartition(catalog, { demo: services.demo !== undefined, workspaceDir: services.workspaceDir, catalogPath: services.catalogPath }),
        clock: services.clock,
        onUnreadable: (m) => unreadable?.(m),
      });
      const { settingsDir } = services;
      const settings = settingsDir ? loadStrataConfig(settingsDir) : undefined;
      const { config, problem } = Host.contextConfig(settings?.context);
      const sessions = Host.sessionRoots(settingsDir, settings?.sessions, services.sessionRoots);
      const host = new Host(catalog, services, memory, config, sessions.roots);
      unreadable = (m) => host.log(null, 'warn', m);
      if (problem) host.log(null, 'error', problem);
      if (memory.adopted > 0) host.log(null, 'info', `Project memory: ${memory.adopted} ${memory.adopted === 1 ? 'entry' : 'entries'} kept under another spelling of this folder's path now belong to this workspace's partition`);
      if (sessions.problem) host.log(null, 'error', sessions.problem);
      if (services.demo) host.runs.openDemo(services.demo.tickMs);
      return host;
    } catch (err) {
      catalog.close();
      throw err;
    }
  }

  /** The workspace's `[context]` settings; a refused strata.toml falls back to the defaults and says why, naming the key. */
  private static contextConfig(loaded: StrataConfig['context'] | undefined): { config: ContextConfig; problem: string | undefined } {
    if (loaded === undefined) return { config: DEFAULT_CONTEXT_CONFIG, problem: undefined };
    if (!isConfigError(loaded)) return { config: loaded, problem: undefined };
    return { config: DEFAULT_CONTEXT_CONFIG, problem: `${loaded.message} — the default [context] settings are used until it is fixed` };
  }

  /** Where sessions are looked for: the shell's roots with the workspace's `[sessions]` settings applied (`[live-settings]`); a refused section changes nothing and says why. */
  private static sessionRoots(workspaceDir: string | undefined, loaded: StrataConfig['sessions'] | undefined, roots: SessionRoots): { roots: SessionRoots; problem: string | undefined } {
    if (workspaceDir === undefined || loaded === undefined) return { roots, problem: undefined };
    if (isConfigError(loaded)) return { roots, problem: `${loaded.message} — sessions are looked for in the standard folders until it is fixed` };
    return { roots: applySessionsConfig(roots, loaded, workspaceDir), problem: undefined };
  }

  private newEngine(tokenizer: Tokenizer, clock: Clock): Engine {
    const engine = new Engine({ tokenizer, clock });
    this.wire(engine);
    return engine;
  }

  private log(agentId: string | null, level: 'info' | 'warn' | 'error', message: string): void {
    this.announceLog(this.catalog.appendLog({ at: new Date(this.clock.now()).toISOString(), level, agentId, message }));
  }

  /**
   * A log line goes out; an error line of a stored agent also sends that agent again, now carrying
   * the error (`[agent-last-error]`), so the tree flags it from the agent alone.
   */
  private announceLog(entry: LogEntry): void {
    if (this.closed) return;
    this.hub.emit({ name: 'log', payload: { entry } });
    if (entry.level !== 'error' || entry.agentId === null) return;
    const record = this.catalog.getAgent(entry.agentId);
    if (record) this.hub.emit({ name: 'agent.updated', payload: { agent: toAgentDto(record, this.engine, this.catalog) } });
  }

  /** A compaction or reminder of a conversation: a line in the workspace log and a `conversation.changed`. */
  private conversationEvent(agentId: string, e: ConversationEvent): void {
    if (this.closed || this.runs.quiet) return;
    const message =
      e.kind === 'compaction'
        ? `Conversation ${e.method} (${e.trigger}) ${e.outcome}: ${e.tokensBefore} → ${e.tokensAfter} tokens · ${e.reason}`
        : e.kind === 'pressure_reminder'
          ? `Context pressure: ${e.usedTokens} of ${e.maxTotalTokens} task tokens used; one reminder queued`
          : 'Workspace reminder sent after a compaction';
    const level = e.kind === 'compaction' && e.outcome !== 'compacted' ? 'warn' : 'info';
    this.log(agentId, level, message);
    if (e.kind === 'compaction' && e.outcome === 'compacted') this.hub.emit({ name: 'conversation.changed', payload: { agentId, change: 'compaction', tokens: e.tokensAfter } });
  }

  /**
   * Recall project memory into an agent's next prompt (`[recall-roles]`, `[recall-scoped]`): only
   * for roles that may have it, verified and current entries only; entries whose command evidence
   * is too old are marked stale for everyone.
   */
  private static recallInto(engine: Engine, memory: MemoryStore, view: WorktreeView, enabled: boolean, agentId: string, now: number): void {
    const id = engine.identity(agentId);
    if (!recallAllowed(id.role, id.scope, enabled)) {
      engine.setRecall(agentId, []);
      return;
    }
    const result = recallScoped(memory.list(['verified']), { task: id.task, files: [], view, now });
    for (const s of result.skipped) if (s.reason === 'stale') memory.markStale(s.record.id, s.record.revision);
    engine.setRecall(
      agentId,
      result.recalled.map(({ record, text }) => ({
        memoryId: record.id,
        author: record.provenance.agentId,
        text,
        observedAt: record.provenance.observedAt,
        confidence: record.provenance.confidence,
        paths: [...record.evidence.paths],
      })),
    );
  }

  /** Attach a view. `deliver` receives the events the view subscribes to. */
  connect(deliver: (event: StrataEvent) => void): HostConnection {
    const session = this.hub.open(deliver);
    return {
      session,
      call: (name, args) =>
        this.closed
          ? Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'The Strata host is shut down.' } })
          : dispatch(this.handlers, name, args, session, this.services.onInternalError),
      close: () => session.close(),
    };
  }

  /** The workspace's context engine: the current run's, else the idle one. */
  get engine(): Engine {
    return this.runs.engine ?? this.idleEngine;
  }

  /** Run one turn of the current run now (tests; the run's timer does it otherwise). */
  async stepDemo(): Promise<void> {
    const run = this.runs.current;
    if (!run || this.closed) return;
    await this.runs.ready();
    await run.step();
  }

  /** Forward an engine's events as contract events (once per engine). */
  private wire(engine: Engine): void {
    if (this.wired.has(engine)) return;
    this.wired.add(engine);
    engine.on((e) => this.onEngineEvent(e, engine));
  }

  private onEngineEvent(e: EngineEvent, engine: Engine): void {
    if (this.closed || this.runs?.quiet) return;
    switch (e.type) {
      case 'generation.started':
        this.runs.generationCreated(e.agentId, e.generation, e.previous, e.text);
        this.hub.emit({ name: 'generation.started', payload: { agentId: e.agentId, generation: e.generation, previous: e.previous, boundary: { ...e.boundary }, text: e.text } });
        if (e.previous !== null) {
          const at = new Date(this.clock.now()).toISOString();
          this.write(() => {
            const entry = this.catalog.appendLog({ at, level: 'info', agentId: e.agentId, message: e.text });
            if (!this.closed) this.hub.emit({ name: 'log', payload: { entry } });
          });
        }
        break;
      case 'item.added': {
        const seq = this.itemSeq++;
        this.write(() => this.catalog.putItem(e.item, seq));
        this.hub.emit({ name: 'item.changed', payload: { change: 'added', itemId: e.item.id, item: toItemDto(e.item) } });
        break;
      }
      case 'item.changed': {
        const seq = this.itemSeq++;
        this.write(() => this.catalog.putItem(e.item, seq));
        this.hub.emit({ name: 'item.changed', payload: { change: e.change, itemId: e.item.id, item: toItemDto(e.item) } });
        break;
      }
      case 'item.removed':
        this.write(() => this.catalog.markItemRemoved(e.itemId));
        this.hub.emit({ name: 'item.changed', payload: { change: 'removed', itemId: e.itemId, item: null } });
        break;
      case 'generation.built': {
        const g = engine.generation(e.agentId, e.generation);
        this.write(() => this.catalog.saveGeneration(g, DROPPED_KEPT));
        break;
      }
      default:
        break;
    }
  }

  /**
   * After a turn in which a purge ran: its held writes and its commit landed after the purge and
   * may hold recalled copies of purged entries or their text, so the purge is applied once more
   * and the WAL truncated (`[erasure-turn]`). The commit's transaction already swept the held writes.
   */
  private sweepAfterTurn(): void {
    if (!this.purgedInTurn) return;
    this.purgedInTurn = false;
    this.memory.sweepPurged({ last: true });
  }

  /** A catalog write now, or held for the open turn's commit. */
  private write(fn: () => void): void {
    if (this.held) this.held.push(fn);
    else fn();
  }

  private itemSeq = 0;

  /**
   * Announce a memory change. After a purge no prompt may carry purged text: recalled copies of
   * entries that no longer exist are removed from the pool, which also makes every agent whose
   * current generation holds one rebuild at its next build (`[erasure]`).
   */
  private memoryChanged(change: 'proposed' | 'verified' | 'retired' | 'stale' | 'purged' | 'edited' | 'unverified', entry: MemoryRecord | null): void {
    if (change === 'purged') {
      // Writes held by a turn in flight land after the purge: remember to apply it again then.
      if (this.held) this.purgedInTurn = true;
      else this.memory.forgetPurged();
      const kept = new Set(this.memory.list().map((r) => r.id));
      for (const item of this.engine.items()) {
        if (item.provenance.source === 'recalled_memory' && item.id.startsWith('recall:') && !kept.has(item.id.slice(item.id.lastIndexOf(':') + 1))) {
          this.engine.remove(item.id);
        }
      }
    }
    this.hub.emit({ name: 'memory.changed', payload: { change, id: entry?.id ?? null, entry: entry ? toMemoryDto(entry) : null } });
  }

  /** Write the engine's view of an agent (generation, tokens) to the catalog and announce it. */
  private syncAgent(agentId: string): void {
    const number = this.engine.currentGeneration(agentId);
    if (number === 0) return;
    const g = this.engine.generation(agentId, number);
    const next = this.agents.update(agentId, (record) => ({ ...record, generation: g.number, tokens: generationTokens(g) }));
    if (!next) return;
    this.hub.emit({ name: 'agent.updated', payload: { agent: toAgentDto(next, this.engine, this.catalog) } });
  }

  /** Stop timers, drop sessions and close the catalog. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.runs.close();
    this.comparisons.close();
    this.liveSessions.close();
    void this.gateway.close();
    this.hub.closeAll();
    this.catalog.close();
  }
}
