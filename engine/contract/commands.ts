import { z } from 'zod';
import { AgentDetailDtoSchema, AgentDtoSchema, HealthDtoSchema } from './dto';
import { AgentImpactDtoSchema, GenerationDiffDtoSchema, GenerationDtoSchema, GenerationSummaryDtoSchema, ItemControlSchema, ItemDtoSchema } from './engineDto';
import { MemoryEntryDtoSchema, PurgeReportDtoSchema } from './memoryDto';
import { ConversationDtoSchema, SkillsDtoSchema } from './conversationDto';
import { ProviderSettingsDtoSchema, RunDtoSchema, StartRunArgsSchema, UsageDtoSchema } from './runDto';
import { ComparisonDtoSchema, ComparisonSummaryDtoSchema, EngineStrategySchema, ImportTraceContentArgsSchema, LiveSessionDetailDtoSchema, LiveSessionDtoSchema, SessionDtoSchema, StartComparisonArgsSchema, TraceDtoSchema } from './traceDto';
import { GatewayControlActionSchema, GatewayModeSchema, GatewaySessionDetailDtoSchema, GatewaySessionDtoSchema, GatewayStatusDtoSchema } from './gatewayDto';
import { eventNames, type EventName } from './events';
import { ATTACH_BUDGET } from '../shared/limits';
import { PURGE_CONFIRMATION } from '../shared/purgePolicy';

const EventNameSchema = z.enum(eventNames as [EventName, ...EventName[]]);
const Id = z.string().min(1).max(200);
const GenerationNumber = z.number().int().positive();
const ItemArgs = z.object({ itemId: Id }).strict();
const ItemResult = z.object({ item: ItemDtoSchema });
const MemoryStateSchema = z.enum(['candidate', 'verified', 'stale', 'retired', 'deleted']);
const MemoryChange = z.object({ id: Id, revision: z.number().int().positive() }).strict();
const MemoryResult = z.object({ entry: MemoryEntryDtoSchema });
export { PURGE_CONFIRMATION } from '../shared/purgePolicy';

/**
 * Every request a view can make of the host: name -> zod schema of the arguments -> zod schema of
 * the result. Arguments are validated by the host transport before any handler runs, so a
 * malformed call is refused with `invalid_args` and changes nothing. Object schemas are strict:
 * an unknown key is an error, not silently ignored.
 *
 * Adding a command is one entry here plus its handler in `engine/host/handlers.ts`; the preload,
 * the IPC adapter, the WebSocket route and the renderer's typed client all derive from this map.
 */
export const Commands = {
  /** Liveness and which workspace/catalog the host serves. */
  health: {
    args: z.object({}).strict(),
    result: HealthDtoSchema,
  },
  /** All agents of the workspace, parents before children, then by id. */
  listAgents: {
    args: z.object({}).strict(),
    result: z.object({ agents: z.array(AgentDtoSchema) }),
  },
  /** One agent with its children and recent log; `not_found` if the id is unknown. */
  getAgent: {
    args: z.object({ agentId: z.string().min(1).max(200) }).strict(),
    result: AgentDetailDtoSchema,
  },
  /**
   * Replace this client's event subscriptions (an empty list unsubscribes from everything).
   * Subscribe first, then list: snapshots carry a `revision`, so nothing is missed or applied twice.
   */
  subscribe: {
    args: z.object({ events: z.array(EventNameSchema).max(eventNames.length) }).strict(),
    result: z.object({ events: z.array(EventNameSchema) }),
  },
  /** Every generation of an agent, oldest first; `not_found` if the agent is unknown. */
  listGenerations: {
    args: z.object({ agentId: Id }).strict(),
    result: z.object({ generations: z.array(GenerationSummaryDtoSchema) }),
  },
  /**
   * One generation in full (the current one when `number` is absent): layers, included items
   * with provenance, score and why, dropped items with reasons (the first `droppedLimit`),
   * compressed items, indicators, and for the current generation the composed prompt.
   */
  getGeneration: {
    args: z.object({ agentId: Id, number: GenerationNumber.optional(), droppedLimit: z.number().int().min(0).max(5000).optional() }).strict(),
    result: GenerationDtoSchema,
  },
  /** What changed from generation `from` to `to` of one agent. */
  diffGenerations: {
    args: z.object({ agentId: Id, from: GenerationNumber, to: GenerationNumber }).strict(),
    result: GenerationDiffDtoSchema,
  },
  /** Pin an item: it enters every context whole, in L1, from each agent's next boundary. */
  pin: { args: ItemArgs, result: ItemResult },
  unpin: { args: ItemArgs, result: ItemResult },
  /** Remove an item from the pool; agents holding it rebuild at their next build. */
  remove: { args: ItemArgs, result: z.object({ itemId: z.string() }) },
  /** Mark exactly this item verified. */
  verify: { args: ItemArgs, result: ItemResult },
  /** Promote an item into the engine pool as a finding, or to project memory as an unverified candidate. */
  promote: {
    args: z.object({ itemId: Id, target: z.enum(['pool', 'memory']) }).strict(),
    result: ItemResult,
  },
  /**
   * What `change` on the item would do before it is used (`[change-preview]`): the agents with a
   * current generation it makes start a new one (and when) and the tokens of their cached prompt it
   * makes the provider miss. Changes nothing; `not_found` for an item not in the pool.
   */
  previewItemChange: {
    args: z.object({ itemId: Id, change: ItemControlSchema }).strict(),
    result: z.object({ itemId: z.string(), change: ItemControlSchema, agents: z.array(AgentImpactDtoSchema) }),
  },
  /** Start a new generation of the agent now, re-packed from the pool. */
  rebuild: {
    args: z.object({ agentId: Id }).strict(),
    result: z.object({ generation: GenerationSummaryDtoSchema }),
  },
  /**
   * Rebuild the agent from its generation `number` (`[restore-generation]`): the items it included
   * that left the pool return (`restored`; `missing` when no whole value was kept), then a new
   * generation starts now, packed afresh. `invalid_args` for a generation released from memory.
   */
  restoreGeneration: {
    args: z.object({ agentId: Id, number: GenerationNumber }).strict(),
    result: z.object({ generation: GenerationSummaryDtoSchema, restored: z.array(z.string()), missing: z.array(z.string()) }),
  },
  /** Refresh the agent now: carry durable state, drop its ephemeral items, start a new generation. */
  refresh: {
    args: z.object({ agentId: Id, reason: z.string().min(1).max(500).optional() }).strict(),
    result: z.object({ from: z.number().int().nonnegative(), to: z.number().int().positive(), text: z.string() }),
  },
  /** Project memory of this workspace, newest first (optionally of some states). */
  listMemory: {
    args: z.object({ states: z.array(MemoryStateSchema).min(1).max(5).optional() }).strict(),
    result: z.object({ entries: z.array(MemoryEntryDtoSchema) }),
  },
  getMemory: { args: z.object({ id: Id }).strict(), result: MemoryResult },
  /** Promote an engine item (a finding) to project memory: it lands as an unverified candidate. */
  promoteToMemory: { args: z.object({ itemId: Id }).strict(), result: MemoryResult },
  /** Verify an entry at the given revision (the only way an entry becomes verified). */
  verifyMemory: { args: MemoryChange, result: MemoryResult },
  retireMemory: { args: MemoryChange, result: MemoryResult },
  /** Undo a verify (`[memory-unverify]`): a verified entry at the given revision goes back to candidate. */
  unverifyMemory: { args: MemoryChange, result: MemoryResult },
  /**
   * Edit an entry's title and/or body at the given revision (`[memory-edit]`): the text passes the
   * memory intake and the entry becomes a candidate (verified text that changed needs a new verify).
   */
  editMemory: {
    args: z.object({ id: Id, revision: z.number().int().positive(), title: z.string().max(1000).optional(), body: z.string().max(20_000).optional() }).strict(),
    result: MemoryResult,
  },
  /**
   * Add a constraint the user typed (`[user-constraint]`): a `user_requirement` constraint in the
   * pool, of `agentId`'s task, pinned unless `pinned` is false (pinned, it enters every context
   * in L1 from each agent's next boundary). The text passes the intake of typed text; a refusal
   * is `invalid_args` and adds nothing.
   */
  addConstraint: {
    args: z.object({ agentId: Id, text: z.string().max(20_000), title: z.string().max(1000).optional(), pinned: z.boolean().optional() }).strict(),
    result: ItemResult,
  },
  /**
   * Delete project memory (all, or of some states), then VACUUM and truncate the WAL. Requires
   * `confirm` to be exactly "purge project memory". Returns what it did and what it cannot promise.
   */
  purgeMemory: {
    args: z.object({ confirm: z.literal(PURGE_CONFIRMATION), states: z.array(MemoryStateSchema).min(1).max(5).optional() }).strict(),
    result: PurgeReportDtoSchema,
  },
  /**
   * An agent's conversation: the system prompt, the summary, the history as turn groups with their
   * ids, the audit trail, compaction events and checkpoints. `not_found` for an unknown agent or
   * one that has not taken a turn yet.
   */
  getConversation: { args: z.object({ agentId: Id }).strict(), result: ConversationDtoSchema },
  /** The skills loaded (shipped and the workspace's own), the load errors, and the selection per agent. */
  listSkills: { args: z.object({}).strict(), result: SkillsDtoSchema },
  /**
   * Start a run: `trace` replays the bundled demo session through the trace driver and the provider
   * cache model (no key, no network); `model` runs a primary on a task through a real provider.
   * `conflict` while another run is running or paused; stop it first.
   */
  startRun: { args: StartRunArgsSchema, result: z.object({ run: RunDtoSchema }) },
  /** Stop ticking; the turn in flight finishes. */
  pauseRun: { args: z.object({ runId: Id }).strict(), result: z.object({ run: RunDtoSchema }) },
  /** Tick again after a pause, from where it paused (`[run-resume]`); `conflict` unless the run is paused. */
  resumeRun: { args: z.object({ runId: Id }).strict(), result: z.object({ run: RunDtoSchema }) },
  /** Run exactly one turn now, of `agentId` when given (a paused run stays paused). */
  stepRun: { args: z.object({ runId: Id, agentId: Id.optional() }).strict(), result: z.object({ run: RunDtoSchema }) },
  /** End the run: the turn in flight is cancelled and commits nothing. */
  stopRun: { args: z.object({ runId: Id }).strict(), result: z.object({ run: RunDtoSchema }) },
  listRuns: { args: z.object({}).strict(), result: z.object({ runs: z.array(RunDtoSchema) }) },
  /**
   * Per agent of the current run: `pause` (skipped by the scheduler until resumed), `resume`, or
   * `cancel` (a turn in flight commits nothing; the agent takes no more turns).
   */
  controlAgent: {
    args: z.object({ agentId: Id, action: z.enum(['pause', 'resume', 'cancel']) }).strict(),
    result: z.object({ agentId: z.string(), status: z.enum(['waiting', 'running', 'paused', 'done', 'failed', 'cancelled']) }),
  },
  /** Per call of an agent: input, cache read, cache write, output, hit rate, prefix reuse (newest `limit`). */
  getUsage: { args: z.object({ agentId: Id, limit: z.number().int().min(1).max(500).optional() }).strict(), result: UsageDtoSchema },
  /** Provider settings as the host sees them: base URL, model, and whether a key is set (never the key). */
  getProviderSettings: { args: z.object({}).strict(), result: z.object({ providers: z.array(ProviderSettingsDtoSchema) }) },
  /**
   * Import the recorded agent session at `path` (a file on the host's machine, read by the host)
   * into the workspace catalog. The same bytes imported again return the stored trace with
   * `alreadyImported`. `not_found` when there is no such file; `invalid_args` naming the file and
   * line when it is not a trace the importers read; nothing is written then.
   */
  importTrace: {
    args: z.object({ path: z.string().min(1).max(4096) }).strict(),
    /** `skippedLines`: lines over the 16 MiB line cap, left out unparsed (absent when none were). */
    result: z.object({ trace: TraceDtoSchema, alreadyImported: z.boolean(), skippedLines: z.array(z.object({ file: z.string(), line: z.number().int(), bytes: z.number().int() })).optional() }),
  },
  /**
   * Import a trace sent as text (a file picked or dropped in a view, whose host path is unknown):
   * the same checks, SHA-256 idempotence and catalog row as `importTrace`; `invalid_args` over
   * {@link MAX_TRACE_CONTENT_BYTES} UTF-8 bytes. The trace's `sourcePath` is `upload:<name>`.
   */
  importTraceContent: {
    args: ImportTraceContentArgsSchema,
    result: z.object({ trace: TraceDtoSchema, alreadyImported: z.boolean() }),
  },
  /** The imported traces, newest first. */
  listTraces: { args: z.object({}).strict(), result: z.object({ traces: z.array(TraceDtoSchema) }) },
  /**
   * Replay each trace under each strategy at `budget` (or at each of `budgets`), off the host's thread; answers at once with
   * status `running` and announces `comparison.progress`. `not_found` for an unknown trace id and
   * `conflict` while too many comparisons run; nothing is started then.
   */
  startComparison: { args: StartComparisonArgsSchema, result: z.object({ comparison: ComparisonDtoSchema }) },
  /** A comparison's status, progress, per-replay totals and per-step series: a running one, or one saved in the catalog's history. */
  getComparison: { args: z.object({ comparisonId: Id }).strict(), result: z.object({ comparison: ComparisonDtoSchema }) },
  /** The comparisons of this workspace, newest first (at most `limit`, default 50): the running ones and the history the catalog keeps. */
  listComparisons: { args: z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(), result: z.object({ comparisons: z.array(ComparisonSummaryDtoSchema) }) },
  /** Stop a running comparison: its replay workers are terminated; the replays already finished keep their results (status `cancelled`). `not_found` for an unknown id, `conflict` once it has ended. */
  cancelComparison: { args: z.object({ comparisonId: Id }).strict(), result: z.object({ comparison: ComparisonDtoSchema }) },
  /** Remove an imported trace from the catalog; comparisons that used it keep their saved results and say it is gone. `not_found` for an unknown id, `conflict` while a running comparison replays it. */
  removeTrace: { args: z.object({ traceId: Id }).strict(), result: z.object({ traceId: z.string() }) },
  /**
   * Recent Claude Code and Codex CLI session files on the host's machine, newest first (at most
   * `limit`, default 100), from the standard folders and the host's extra session folders
   * (`--sessions-dir`), which `roots` names. Read-only: only each file's first lines are read.
   */
  listSessions: {
    args: z.object({ limit: z.number().int().min(1).max(500).optional() }).strict(),
    result: z.object({ sessions: z.array(SessionDtoSchema), roots: z.array(z.string()) }),
  },
  /**
   * Follow a growing session file read-only (a `.jsonl` Claude Code or Codex session) and replay it
   * into Strata's engine under `strategy` (default variable) at `budget` (default 100,000) as it
   * grows, off the host's thread; `session.updated` announces its figures. `not_found` without such
   * a file, `invalid_args` for anything else, `conflict` past 8 attached sessions.
   */
  attachSession: {
    args: z.object({ path: z.string().min(1).max(4096), strategy: EngineStrategySchema.optional(), budget: z.number().int().min(ATTACH_BUDGET.min).max(ATTACH_BUDGET.max).optional() }).strict(),
    result: z.object({ session: LiveSessionDtoSchema }),
  },
  /** Stop following an attached session (`not_found` for an unknown id). */
  detachSession: { args: z.object({ sessionId: Id }).strict(), result: z.object({ sessionId: z.string() }) },
  /** The attached sessions. */
  listAttached: { args: z.object({}).strict(), result: z.object({ sessions: z.array(LiveSessionDtoSchema) }) },
  /** One attached session with its per-step series, real and counterfactual. */
  getSession: { args: z.object({ sessionId: Id }).strict(), result: LiveSessionDetailDtoSchema },
  /** The local gateway: running or not, its address and upstreams, the mode of new sessions, and what to paste to point each client at it. */
  getGateway: { args: z.object({}).strict(), result: z.object({ status: GatewayStatusDtoSchema }) },
  /**
   * Start the gateway on 127.0.0.1 (at `port`, else the workspace's, else any free one) with new
   * sessions in `mode` (default the workspace's, observe). `conflict` while it runs or the port is
   * taken; nothing changes then.
   */
  startGateway: { args: z.object({ port: z.number().int().min(0).max(65535).optional(), mode: GatewayModeSchema.optional() }).strict(), result: z.object({ status: GatewayStatusDtoSchema }) },
  /** Stop the gateway; the sessions it saw stay readable until it starts again. */
  stopGateway: { args: z.object({}).strict(), result: z.object({ status: GatewayStatusDtoSchema }) },
  /** The sessions the gateway saw, most recently active first, with their totals. */
  listGatewaySessions: { args: z.object({}).strict(), result: z.object({ sessions: z.array(GatewaySessionDtoSchema) }) },
  /** One gateway session: its threads (main, subagents) with their newest calls, manage mode's generations and the operator's controls. `not_found` for an unknown id. */
  getGatewaySession: { args: z.object({ sessionId: Id }).strict(), result: GatewaySessionDetailDtoSchema },
  /** Switch a gateway session between observe and manage, from its next call on. `not_found` for an unknown id. */
  setGatewayMode: { args: z.object({ sessionId: Id, mode: GatewayModeSchema }).strict(), result: z.object({ session: GatewaySessionDtoSchema }) },
  /**
   * Pin, unpin, remove or restore one result (its tool call id, `itemKey`) of a managed thread, from
   * the thread's next call. `not_found` for an unknown session or thread, `conflict` pinning a
   * removed result or removing a pinned one.
   */
  gatewayControl: {
    args: z.object({ sessionId: Id, threadId: Id, itemKey: z.string().min(1).max(500), action: GatewayControlActionSchema }).strict(),
    result: z.object({ pins: z.array(z.string()), removals: z.array(z.string()) }),
  },
  /** A managed call's request as the client sent it and as it went upstream (`rewritten` null when the original went), while kept. `not_found` otherwise. */
  getGatewayRequest: { args: z.object({ callId: Id }).strict(), result: z.object({ callId: z.string(), original: z.string(), rewritten: z.string().nullable() }) },
} as const;

export type CommandName = keyof typeof Commands;
export type CommandArgs<K extends CommandName> = z.input<(typeof Commands)[K]['args']>;
export type CommandResult<K extends CommandName> = z.infer<(typeof Commands)[K]['result']>;

/** Command names in declaration order (runtime list for the preload and the transports). */
export const commandNames = Object.keys(Commands) as CommandName[];

/** True when `name` is one of the contract's commands (guards untrusted channel names). */
export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(Commands, name);
}
