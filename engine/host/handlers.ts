import type { z } from 'zod';
import { type CommandName, type CommandResult, Commands, type SessionDto, StrataError, type TraceDto } from '../contract';
import type { Catalog } from '../node/catalog/Catalog';
import type { Engine } from '../Engine';
import type { AgentConversations } from './AgentConversations';
import type { Comparisons } from './Comparisons';
import type { RunManager } from './RunManager';
import type { ClientSession } from './ClientSession';
import type { MemoryRecord } from '../memory/MemoryRecord';
import type { MemoryStore } from '../node/memoryStore/MemoryStore';
import type { WorktreeView } from '../memory/recall/WorktreeView';
import { diffGenerations } from '../generations/diffGenerations';
import { DROPPED_KEPT, type Generation } from '../generations/Generation';
import { toGenerationDiffDto, toGenerationDto, toGenerationSummary, toItemDto } from './engineDtos';
import { withStoredEntries } from './generationHistory';
import { withoutPurgedRecall } from './withoutPurgedRecall';
import { importTraceContentIntoCatalog, importTraceIntoCatalog } from './importTraceIntoCatalog';
import { proposalFromItem, toMemoryDto } from './memoryDtos';
import { intakeTypedText } from '../memory/intake';
import { toAgentDto } from './toAgentDto';
import type { LiveSessions } from './LiveSessions';
import type { GatewayService } from './GatewayService';
import { discoverSessions, type SessionInfo, type SessionRoots } from '../node/traces/live/discoverSessions';

const iso = (ms: number) => new Date(ms).toISOString();
/** A found session as the views get it (times as ISO-8601). */
const toSessionDto = (s: SessionInfo): SessionDto => ({ ...s, startedAt: s.startedAt === null ? null : iso(s.startedAt), modifiedAt: iso(s.modifiedAt), size: s.size });

/** What a handler may use: the host's state, never the transport. */
export interface HostContext {
  catalog: Catalog;
  version: string;
  workspaceName: string;
  /** The workspace is a project folder of the user's own, not the demo (`[run-project-folder]`). */
  projectFolder?: boolean;
  uptimeMs(): number;
  /** The workspace's context engine (the demo replaces it when its scenario starts over). */
  engine(): Engine;
  /** Write an agent's current generation and tokens from the engine to the catalog and announce it. */
  syncAgent(agentId: string): void;
  memory: MemoryStore;
  /** The workspace as agents see it (file hashes for memory evidence and freshness). */
  view: WorktreeView;
  /** Write a line to the workspace log (and announce it). */
  log?(level: 'info' | 'warn' | 'error', message: string): void;
  /** Announce a memory change (and drop purged entries from the engine's recall). */
  memoryChanged(change: 'proposed' | 'verified' | 'retired' | 'stale' | 'purged' | 'edited' | 'unverified', entry: MemoryRecord | null): void;
  /** Every agent's conversation and the skills they select from. */
  conversations: AgentConversations;
  /** The runs of this workspace (at most one active). */
  runs: RunManager;
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Announce a trace imported into the catalog. */
  traceImported(trace: TraceDto): void;
  /** Announce a trace removed from the catalog. */
  traceRemoved(traceId: string): void;
  /** Replays of imported traces under several strategies. */
  comparisons: Comparisons;
  /** Where live Claude Code and Codex sessions are looked for. */
  sessionRoots: SessionRoots;
  /** The attached live sessions. */
  liveSessions: LiveSessions;
  /** The SQLite module the host loads (Electron's build), also for reading OpenCode databases. */
  nativeBinding?: string | undefined;
  /** The local gateway (issue 23). */
  gateway: GatewayService;
}

/** Arguments after validation (defaults applied). */
type ParsedArgs<K extends CommandName> = z.output<(typeof Commands)[K]['args']>;

export type Handler<K extends CommandName> = (
  args: ParsedArgs<K>,
  session: ClientSession,
) => CommandResult<K> | Promise<CommandResult<K>>;

/** One handler per contract command: a missing handler is a compile error. */
export type Handlers = { [K in CommandName]: Handler<K> };

const RECENT_LOG = 50;
const DROPPED_LIMIT = 500;

export function createHandlers(ctx: HostContext): Handlers {
  const { catalog } = ctx;
  // A command that changes state writes all of it in one catalog transaction (`[turn-atomic]`).
  const tx = <T>(fn: () => T): T => catalog.transaction(fn);
  const live = ctx.liveSessions;
  // A recalled copy shows its text only while its memory entry exists (`[erasure]`).
  const memoryExists = (id: string) => ctx.memory.get(id) !== undefined;
  // Attached sessions' agents and items are watched, never driven (`[live-agents]`).
  const nativeItem = (itemId: string) => (live.ownsItem(itemId) ? live.refuseChange(`Item "${itemId}"`) : itemId);
  const nativeAgent = (agentId: string) => (live.owner(agentId) ? live.refuseChange(`Agent "${agentId}"`) : agentId);
  return {
    health: () => ({
      ok: true,
      version: ctx.version,
      workspace: { name: ctx.workspaceName, catalogPath: catalog.path, projectFolder: ctx.projectFolder === true },
      catalog: { schemaVersion: catalog.schemaVersion(), journalMode: catalog.journalMode() },
      agents: catalog.countAgents(),
      uptimeMs: ctx.uptimeMs(),
    }),

    listAgents: () => {
      const engine = ctx.engine();
      return { agents: [...catalog.listAgents().map((a) => toAgentDto(a, engine, catalog)), ...live.agents()] };
    },

    getAgent: ({ agentId }) => {
      if (live.owner(agentId)) return live.agentDetail(agentId);
      const agent = catalog.getAgent(agentId);
      if (!agent) throw new StrataError('not_found', `No agent "${agentId}" in workspace "${ctx.workspaceName}".`);
      return {
        agent: toAgentDto(agent, ctx.engine(), catalog),
        children: catalog.childrenOf(agentId),
        recentLog: catalog.recentLog(RECENT_LOG, agentId),
      };
    },

    subscribe: ({ events }, session) => {
      session.setSubscriptions(events);
      return { events: session.subscriptions() };
    },

    listGenerations: ({ agentId }) => ({ generations: live.owner(agentId) ? live.generations(agentId) : ctx.engine().generations(agentId).map(toGenerationSummary) }),

    getGeneration: ({ agentId, number, droppedLimit }) => {
      if (live.owner(agentId)) return live.generation(agentId, number, droppedLimit ?? DROPPED_LIMIT);
      const engine = ctx.engine();
      const current = engine.currentGeneration(agentId);
      const wanted = number ?? current;
      if (wanted === 0) throw new StrataError('not_found', `Agent "${agentId}" has not been built yet.`);
      const parts = wanted === current ? engine.lastPromptParts(agentId) : undefined;
      const limit = droppedLimit ?? DROPPED_LIMIT;
      const shown = withoutPurgedRecall(withStoredEntries(engine.generation(agentId, wanted), catalog, limit), parts?.layers, memoryExists);
      const dto = toGenerationDto(shown.generation, limit, parts && shown.layers ? { ...shown.layers, prefixHash: parts.prefixHash } : null);
      // A listed item the pool let go cannot take a control: the views say so instead of offering it.
      const absent = [...new Set([...dto.included, ...dto.dropped].map((e) => e.item.id))].filter((id) => !engine.hasItem(id));
      return absent.length > 0 ? { ...dto, absent } : dto;
    },

    diffGenerations: ({ agentId, from, to }) => {
      if (live.owner(agentId)) return live.diff(agentId, from, to);
      const engine = ctx.engine();
      const [a, b] = [engine.generation(agentId, from), engine.generation(agentId, to)].map(
        (g) => withoutPurgedRecall(withStoredEntries(g, catalog, DROPPED_KEPT), undefined, memoryExists).generation,
      ) as [Generation, Generation];
      return toGenerationDiffDto(diffGenerations(a, b));
    },

    pin: ({ itemId }) => tx(() => ({ item: toItemDto(ctx.engine().pin(nativeItem(itemId))) })),
    unpin: ({ itemId }) => tx(() => ({ item: toItemDto(ctx.engine().unpin(nativeItem(itemId))) })),
    verify: ({ itemId }) => tx(() => ({ item: toItemDto(ctx.engine().verify(nativeItem(itemId))) })),
    promote: ({ itemId, target }) => tx(() => ({ item: toItemDto(ctx.engine().promote(nativeItem(itemId), target)) })),
    remove: ({ itemId }) =>
      tx(() => {
        nativeItem(itemId);
        ctx.engine().remove(itemId);
        return { itemId };
      }),

    previewItemChange: ({ itemId, change }) => ({ itemId, change, agents: ctx.engine().previewChange(nativeItem(itemId), change) }),

    rebuild: ({ agentId }) =>
      tx(() => {
        nativeAgent(agentId);
        const r = ctx.engine().rebuild(agentId, 'manual rebuild by an operator');
        ctx.syncAgent(agentId);
        return { generation: toGenerationSummary(r.generation) };
      }),

    restoreGeneration: ({ agentId, number }) =>
      tx(() => {
        nativeAgent(agentId);
        const r = ctx.engine().restore(agentId, number);
        ctx.syncAgent(agentId);
        return { generation: toGenerationSummary(r.result.generation), restored: r.restored, missing: r.missing };
      }),

    refresh: ({ agentId, reason }) =>
      tx(() => {
        nativeAgent(agentId);
        const r = ctx.engine().refresh(agentId, reason ?? 'manual refresh by an operator');
        ctx.syncAgent(agentId);
        return { from: r.from, to: r.to, text: r.text };
      }),

    listMemory: ({ states }) => ({ entries: ctx.memory.list(states).map(toMemoryDto) }),

    getMemory: ({ id }) => {
      const r = ctx.memory.get(id);
      if (!r) throw new StrataError('not_found', `No memory entry ${id}.`);
      return { entry: toMemoryDto(r) };
    },

    promoteToMemory: ({ itemId }) =>
      tx(() => {
        nativeItem(itemId);
        const engine = ctx.engine();
        const item = engine.item(itemId);
        const record = ctx.memory.propose(proposalFromItem(item, ctx.view));
        engine.promote(itemId, 'memory');
        ctx.memoryChanged('proposed', record);
        // An evidence file without a hash keeps its path but can never show the entry current: say why.
        for (const path of record.evidence.paths) {
          if (record.evidence.hashes[path] !== undefined) continue;
          const why = ctx.view.whyNoHash?.(path) ?? 'this workspace view cannot hash it';
          ctx.log?.('warn', `Memory entry ${record.id}: evidence file ${path} has no hash: ${why}. The entry is not recalled while the file cannot be hashed (and, with no hash kept, a later content of it is not compared with this one).`);
        }
        return { entry: toMemoryDto(record) };
      }),

    verifyMemory: ({ id, revision }) =>
      tx(() => {
        const record = ctx.memory.verify(id, revision);
        ctx.memoryChanged('verified', record);
        return { entry: toMemoryDto(record) };
      }),

    retireMemory: ({ id, revision }) =>
      tx(() => {
        const record = ctx.memory.retire(id, revision);
        ctx.memoryChanged('retired', record);
        return { entry: toMemoryDto(record) };
      }),

    unverifyMemory: ({ id, revision }) =>
      tx(() => {
        const record = ctx.memory.unverify(id, revision);
        ctx.memoryChanged('unverified', record);
        return { entry: toMemoryDto(record) };
      }),

    editMemory: ({ id, revision, title, body }) =>
      tx(() => {
        const record = ctx.memory.edit(id, revision, { title, body });
        ctx.memoryChanged('edited', record);
        return { entry: toMemoryDto(record) };
      }),

    addConstraint: ({ agentId, text, title, pinned }) =>
      tx(() => {
        const engine = ctx.engine();
        const { taskId } = engine.identity(nativeAgent(agentId));
        const typed = intakeTypedText({ title, text });
        if (!typed.ok) throw new StrataError('invalid_args', `The constraint was not added: ${typed.reason}.`);
        const at = ctx.now();
        let n = 1;
        while (engine.hasItem(`constraint:user:${at}:${n}`)) n++;
        const id = `constraint:user:${at}:${n}`;
        engine.addItem({ id, kind: 'constraint', class: 'task_state', title: typed.title ?? 'Constraint', content: typed.text, source: 'user_requirement', agentId: 'user', taskId, at, confidence: 1, relevance: 1 });
        // Pinned, it belongs in L1: the pin starts each agent's next generation at its next build.
        const item = pinned === false ? engine.item(id) : engine.pin(id);
        return { item: toItemDto(item) };
      }),

    getConversation: ({ agentId }) => {
      if (live.owner(agentId)) throw new StrataError('not_found', `${agentId} is an attached session: Strata replays its figures and contexts, it holds no live conversation for it.`);
      if (!catalog.getAgent(agentId)) throw new StrataError('not_found', `No agent "${agentId}" in workspace "${ctx.workspaceName}".`);
      const conversation = ctx.conversations.conversation(agentId);
      if (!conversation) throw new StrataError('not_found', `Agent "${agentId}" is not in the current run, so it has no live conversation.`);
      return conversation;
    },

    listSkills: () => ctx.conversations.skills(),

    startRun: (args) => ({ run: ctx.runs.start(args) }),
    pauseRun: ({ runId }) => ({ run: ctx.runs.pause(runId) }),
    resumeRun: ({ runId }) => ({ run: ctx.runs.resume(runId) }),
    stepRun: async ({ runId, agentId }) => ({ run: await ctx.runs.step(runId, agentId) }),
    stopRun: ({ runId }) => ({ run: ctx.runs.stop(runId) }),
    listRuns: () => ({ runs: ctx.runs.list() }),
    controlAgent: ({ agentId, action }) => ({ agentId, status: ctx.runs.controlAgent(nativeAgent(agentId), action) }),
    getUsage: ({ agentId, limit }) => (live.owner(agentId) ? live.usage(agentId, limit) : ctx.runs.usage(agentId, limit)),
    getProviderSettings: () => ({ providers: ctx.runs.providerSettings() }),

    importTrace: async ({ path }) => {
      const imported = await importTraceIntoCatalog(catalog, path, ctx.now(), { nativeBinding: ctx.nativeBinding });
      if (!imported.alreadyImported) ctx.traceImported(imported.trace);
      return imported;
    },
    importTraceContent: async ({ name, content }) => {
      const imported = await importTraceContentIntoCatalog(catalog, { name, content }, ctx.now());
      if (!imported.alreadyImported) ctx.traceImported(imported.trace);
      return imported;
    },
    listTraces: () => ({ traces: catalog.listTraces() }),
    listSessions: ({ limit }) => ({
      sessions: discoverSessions(ctx.sessionRoots, { now: ctx.now(), limit: limit ?? 100 }).map(toSessionDto),
      roots: [ctx.sessionRoots.claude, ctx.sessionRoots.codex, ...(ctx.sessionRoots.extra ?? [])].filter((r): r is string => !!r),
    }),
    attachSession: (args) => ({ session: ctx.liveSessions.attach(args) }),
    detachSession: ({ sessionId }) => {
      ctx.liveSessions.detach(sessionId);
      return { sessionId };
    },
    listAttached: () => ({ sessions: ctx.liveSessions.list() }),
    getSession: ({ sessionId }) => ctx.liveSessions.detail(sessionId),
    getGateway: () => ({ status: ctx.gateway.status() }),
    startGateway: async (args) => ({ status: await ctx.gateway.start(args) }),
    stopGateway: async () => ({ status: await ctx.gateway.stop() }),
    listGatewaySessions: () => ({ sessions: ctx.gateway.listSessions() }),
    getGatewaySession: ({ sessionId }) => ctx.gateway.session(sessionId),
    setGatewayMode: ({ sessionId, mode }) => ({ session: ctx.gateway.setMode(sessionId, mode) }),
    gatewayControl: (args) => ctx.gateway.control(args),
    getGatewayRequest: ({ callId }) => ctx.gateway.request(callId),
    startComparison: (args) => ({ comparison: ctx.comparisons.start(args) }),
    getComparison: ({ comparisonId }) => ({ comparison: ctx.comparisons.get(comparisonId) }),
    listComparisons: ({ limit }) => ({ comparisons: ctx.comparisons.list(limit) }),
    cancelComparison: async ({ comparisonId }) => ({ comparison: await ctx.comparisons.cancel(comparisonId) }),
    removeTrace: ({ traceId }) => {
      // `[trace-remove]`: a trace a running comparison replays stays until it ends or is cancelled.
      if (!catalog.getTrace(traceId)) throw new StrataError('not_found', `No imported trace ${traceId}.`);
      if (ctx.comparisons.replaying(traceId)) throw new StrataError('conflict', `A running comparison replays ${catalog.getTrace(traceId)!.name}; cancel it or wait for it to end, then remove the trace.`);
      catalog.deleteTrace(traceId);
      ctx.traceRemoved(traceId);
      return { traceId };
    },

    // Not in a transaction: VACUUM cannot run inside one.
    purgeMemory: ({ states }) => {
      const report = ctx.memory.purge(states);
      ctx.memoryChanged('purged', null);
      return report;
    },
  };
}
