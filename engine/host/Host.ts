import type { Envelope, StrataEvent } from '../contract';
import { Catalog } from '../catalog/Catalog';
import { Engine } from '../Engine';
import type { EngineEvent } from '../EngineEvent';
import { DROPPED_KEPT } from '../generations/Generation';
import type { MemoryRecord } from '../memory/MemoryRecord';
import { partitionId } from '../memory/partitionId';
import { recallAllowed } from '../memory/recall/recallPolicy';
import { recallScoped } from '../memory/recall/recallScoped';
import type { WorktreeView } from '../memory/recall/WorktreeView';
import { MemoryStore } from '../memory/store/MemoryStore';
import { type Clock, systemClock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { Tokenizer } from '../tokens/Tokenizer';
import { createTiktokenTokenizer } from '../tokens/tiktokenTokenizer';
import { AgentConversations } from './AgentConversations';
import type { ClientSession } from './ClientSession';
import { demoTurnGroups } from './demoConversation';
import { isConfigError } from '../conversation/contextConfig';
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../conversation/contextConfig';
import type { ConversationEvent } from '../conversation/AgentConversation';
import { loadContextConfig } from './loadContextConfig';
import { DemoPlayer, type DemoChange } from './DemoPlayer';
import { loadDemoScenario } from './demoScenario';
import { dispatch } from './dispatch';
import { toItemDto } from './engineDtos';
import { EventHub } from './EventHub';
import { createHandlers, type Handlers } from './handlers';
import { toMemoryDto } from './memoryDtos';
import { systemScheduler } from './systemScheduler';
import { toAgentDto } from './toAgentDto';
import { demoWorktreeView, folderWorktreeView } from './worktreeViews';

export interface HostOptions {
  /** SQLite file of the workspace catalog (created and migrated if needed). */
  catalogPath: string;
  workspaceName: string;
  /** Strata's version, reported by `health`. */
  version: string;
  /** `resources/demo`: seed the demo workspace from it on first run and play its scenario. */
  demoDir?: string;
  /** Milliseconds between demo steps; 0 or absent seeds without playing. */
  demoTickMs?: number;
  clock?: Clock;
  scheduler?: Scheduler;
  /** Token counting for the engine (default: o200k_base through js-tiktoken). */
  tokenizer?: Tokenizer;
  /** `Settings.memory`: recall project memory into prompts (default true). */
  memory?: boolean;
  /** The project folder, for a non-demo workspace (its files are the agents' view). */
  workspaceDir?: string;
  /** `resources/skills`: the skills shipped with Strata (absent: none). */
  skillsDir?: string;
  /** Where unexpected handler failures are reported (they also reach the caller as `internal`). */
  onInternalError?: (err: unknown, command: string) => void;
}

/** A view connected to the host: call commands, receive subscribed events. */
export interface HostConnection {
  readonly session: ClientSession;
  /** Validate and run one contract command; never throws. */
  call(name: unknown, args: unknown): Promise<Envelope<unknown>>;
  close(): void;
}

/**
 * The Strata host: owns the workspace catalog, the context engine and project memory (and later
 * the agent runtime), answers contract commands and pushes contract events. Plain Node: Electron
 * main and the headless web host are two thin transports over the same Host.
 */
export class Host {
  private readonly hub = new EventHub();
  private readonly handlers: Handlers;
  private readonly stopDemo: () => void;
  private closed = false;
  private readonly clock: Clock;
  /** The engine when there is no demo (a plain workspace); the demo owns its own. */
  private readonly plainEngine: Engine | undefined;
  private readonly wired = new WeakSet<Engine>();

  private constructor(
    readonly catalog: Catalog,
    private readonly options: HostOptions,
    private readonly demo: DemoPlayer | undefined,
    readonly memory: MemoryStore,
    view: WorktreeView,
    readonly conversations: AgentConversations,
    private readonly configProblem: string | undefined,
  ) {
    const clock = options.clock ?? systemClock;
    this.clock = clock;
    const startedAt = clock.now();
    this.plainEngine = demo ? undefined : new Engine({ tokenizer: options.tokenizer ?? createTiktokenTokenizer(), clock });
    this.handlers = createHandlers({
      catalog,
      version: options.version,
      workspaceName: options.workspaceName,
      uptimeMs: () => clock.now() - startedAt,
      engine: () => this.engine,
      syncAgent: (agentId) => this.syncAgent(agentId),
      memory,
      view,
      memoryChanged: (change, entry) => this.memoryChanged(change, entry),
      conversations,
    });
    if (configProblem) this.publish({ agents: [], log: [this.catalog.appendLog({ at: new Date(clock.now()).toISOString(), level: 'error', agentId: null, message: configProblem })] });
    this.wire(this.engine);
    const tick = options.demoTickMs ?? 0;
    this.stopDemo = demo && tick > 0 ? (options.scheduler ?? systemScheduler).every(tick, () => this.stepDemo()) : () => {};
  }

  /** Open the catalog, seed the demo workspace on first run and start playing it. */
  static open(options: HostOptions): Host {
    const scenario = options.demoDir ? loadDemoScenario(options.demoDir) : undefined;
    const catalog = Catalog.open(options.catalogPath);
    try {
      const clock = options.clock ?? systemClock;
      const tokenizer = options.tokenizer ?? createTiktokenTokenizer();
      const view = scenario ? demoWorktreeView : options.workspaceDir ? folderWorktreeView(options.workspaceDir) : demoWorktreeView;
      const memory = MemoryStore.open(catalog, { partition: partitionId(scenario ? 'demo' : (options.workspaceDir ?? options.catalogPath)), clock });
      const recall = (engine: Engine, agentId: string, now: number) => Host.recallInto(engine, memory, view, options.memory ?? true, agentId, now);
      // The workspace folder holds strata.toml and .strata/skills; the demo's is resources/demo.
      const workspaceDir = scenario ? options.demoDir : options.workspaceDir;
      const { config, problem } = Host.contextConfig(workspaceDir);
      const sink: { host?: Host } = {};
      const conversations = new AgentConversations({
        tokenizer,
        clock,
        config,
        ...(options.skillsDir ? { shippedSkillsDir: options.skillsDir } : {}),
        ...(workspaceDir ? { workspaceDir } : {}),
        onChange: (agentId, change, tokens) => sink.host?.conversationChanged(agentId, change, tokens),
        onEvent: (agentId, event) => sink.host?.conversationEvent(agentId, event),
      });
      const observer = {
        reset: () => void conversations.reset(),
        turn: (agent: NonNullable<typeof scenario>['agents'][number], step: Parameters<typeof demoTurnGroups>[0], index: number, items: Parameters<typeof demoTurnGroups>[3], first: boolean, engine: Engine) => {
          const parts = engine.lastPromptParts(agent.agentId);
          const files = [...new Set(items.flatMap((i) => i.files ?? []))];
          void conversations.turn(agent, {
            groups: demoTurnGroups(step, agent, first, items, index),
            request: { selection: { role: agent.role, phase: step.build?.phase ?? 'work', task: agent.task, files, languages: [] }, ...(parts?.dynamic ? { runtime: parts.dynamic } : {}) },
            ...(step.usage ? { telemetry: { inputTokens: step.usage.input + step.usage.cacheRead + step.usage.cacheWrite, outputTokens: step.usage.output } } : {}),
          });
        },
      };
      const demo = scenario ? new DemoPlayer(catalog, scenario, clock, (c) => new Engine({ tokenizer, clock: c }), recall, observer) : undefined;
      demo?.seedIfNew();
      demo?.restore();
      const host = new Host(catalog, options, demo, memory, view, conversations, problem);
      sink.host = host;
      return host;
    } catch (err) {
      catalog.close();
      throw err;
    }
  }

  /** The workspace's `[context]` settings; a refused strata.toml falls back to the defaults and says why, naming the key. */
  private static contextConfig(workspaceDir: string | undefined): { config: ContextConfig; problem: string | undefined } {
    if (!workspaceDir) return { config: DEFAULT_CONTEXT_CONFIG, problem: undefined };
    const loaded = loadContextConfig(workspaceDir);
    if (!isConfigError(loaded)) return { config: loaded, problem: undefined };
    return { config: DEFAULT_CONTEXT_CONFIG, problem: `${loaded.message} — the default [context] settings are used until it is fixed` };
  }

  /** Announce a conversation change to the views. */
  private conversationChanged(agentId: string, change: 'turn' | 'compaction' | 'reset', tokens: number): void {
    if (!this.closed) this.hub.emit({ name: 'conversation.changed', payload: { agentId, change, tokens } });
  }

  /** A compaction or reminder of a conversation, as a line in the workspace log. */
  private conversationEvent(agentId: string, e: ConversationEvent): void {
    if (this.closed) return;
    const message =
      e.kind === 'compaction'
        ? `Conversation ${e.method} (${e.trigger}) ${e.outcome}: ${e.tokensBefore} → ${e.tokensAfter} tokens · ${e.reason}`
        : e.kind === 'pressure_reminder'
          ? `Context pressure: ${e.usedTokens} of ${e.maxTotalTokens} task tokens used; one reminder queued`
          : 'Workspace reminder sent after a compaction';
    const level = e.kind === 'compaction' && (e.outcome === 'failed' || e.outcome === 'denied') ? 'warn' : 'info';
    const entry = this.catalog.appendLog({ at: new Date(this.clock.now()).toISOString(), level, agentId, message });
    this.hub.emit({ name: 'log', payload: { entry } });
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
          : dispatch(this.handlers, name, args, session, this.options.onInternalError),
      close: () => session.close(),
    };
  }

  /** The workspace's context engine. */
  get engine(): Engine {
    return this.demo ? this.demo.engine : (this.plainEngine as Engine);
  }

  /** Advance the demo scenario by one step (the timer calls this; tests call it directly). */
  stepDemo(): void {
    if (!this.demo || this.closed) return;
    let change: DemoChange;
    try {
      change = this.demo.step();
    } finally {
      this.wire(this.engine);
    }
    this.publish(change);
  }

  /** Forward an engine's events as contract events (once per engine). */
  private wire(engine: Engine): void {
    if (this.wired.has(engine)) return;
    this.wired.add(engine);
    engine.on((e) => this.onEngineEvent(e));
  }

  private onEngineEvent(e: EngineEvent): void {
    if (this.closed) return;
    switch (e.type) {
      case 'generation.started':
        this.hub.emit({ name: 'generation.started', payload: { agentId: e.agentId, generation: e.generation, previous: e.previous, boundary: { ...e.boundary }, text: e.text } });
        if (e.previous !== null) {
          const entry = this.catalog.appendLog({ at: new Date(this.clock.now()).toISOString(), level: 'info', agentId: e.agentId, message: e.text });
          this.hub.emit({ name: 'log', payload: { entry } });
        }
        break;
      case 'item.added':
        this.catalog.putItem(e.item, this.itemSeq++);
        this.hub.emit({ name: 'item.changed', payload: { change: 'added', itemId: e.item.id, item: toItemDto(e.item) } });
        break;
      case 'item.changed':
        this.catalog.putItem(e.item, this.itemSeq++);
        this.hub.emit({ name: 'item.changed', payload: { change: e.change, itemId: e.item.id, item: toItemDto(e.item) } });
        break;
      case 'item.removed':
        this.catalog.markItemRemoved(e.itemId);
        this.hub.emit({ name: 'item.changed', payload: { change: 'removed', itemId: e.itemId, item: null } });
        break;
      case 'generation.built':
        this.catalog.saveGeneration(this.engine.generation(e.agentId, e.generation), DROPPED_KEPT);
        break;
      default:
        break;
    }
  }

  private itemSeq = 0;

  /**
   * Announce a memory change. After a purge no prompt may carry purged text: recalled copies of
   * entries that no longer exist are removed from the pool, which also makes every agent whose
   * current generation holds one rebuild at its next build (`[erasure]`).
   */
  private memoryChanged(change: 'proposed' | 'verified' | 'retired' | 'stale' | 'purged', entry: MemoryRecord | null): void {
    if (change === 'purged') {
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
    const record = this.catalog.getAgent(agentId);
    const number = this.engine.currentGeneration(agentId);
    if (!record || number === 0) return;
    const g = this.engine.generation(agentId, number);
    const next = { ...record, generation: g.number, tokens: g.tokens, revision: record.revision + 1, updatedAt: new Date(this.clock.now()).toISOString() };
    this.catalog.putAgent(next);
    this.hub.emit({ name: 'agent.updated', payload: { agent: toAgentDto(next) } });
  }

  private publish(change: DemoChange): void {
    for (const a of change.agents) this.hub.emit({ name: 'agent.updated', payload: { agent: toAgentDto(a) } });
    for (const entry of change.log) this.hub.emit({ name: 'log', payload: { entry } });
  }

  /** Stop timers, drop sessions and close the catalog. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopDemo();
    this.hub.closeAll();
    this.catalog.close();
  }
}
