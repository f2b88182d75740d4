import { z } from 'zod';
import { AgentDtoSchema, LogEntrySchema } from './dto';
import { BoundaryDtoSchema, ItemChangeSchema, ItemDtoSchema } from './engineDto';
import { MemoryEntryDtoSchema } from './memoryDto';
import { CallDtoSchema, RunDtoSchema } from './runDto';
import { GatewayCallDtoSchema, GatewaySessionDtoSchema, GatewayStatusDtoSchema } from './gatewayDto';
import { ComparisonStatusSchema, LiveSessionDtoSchema, TraceDtoSchema } from './traceDto';

/** What the desktop menu can ask of the views. */
const APP_COMMANDS = ['show-agent', 'show-charts', 'show-compare', 'show-memory', 'show-skills', 'show-events', 'show-gateway', 'purge-memory'] as const;
export type AppCommand = (typeof APP_COMMANDS)[number];

/**
 * Every push from the host to the views, by name. A view receives only the events it subscribed
 * to; each payload is a plain DTO. Adding an event is one entry here and one `emit` in the host.
 */
export const Events = {
  /** An agent changed (status, generation, tokens, usage). Carries the whole new snapshot. */
  'agent.updated': z.object({ agent: AgentDtoSchema }),
  /** A new line in the workspace event log. */
  log: z.object({ entry: LogEntrySchema }),
  /** An agent began a new generation; `text` is `Context refreshed · Generation 2 → 3 · Reason: …`. */
  'generation.started': z.object({
    agentId: z.string(),
    generation: z.number().int().positive(),
    previous: z.number().int().positive().nullable(),
    boundary: BoundaryDtoSchema,
    text: z.string(),
  }),
  /** An item of the pool was added, pinned, unpinned, verified, promoted or removed (`item` null when removed). */
  'item.changed': z.object({ change: ItemChangeSchema, itemId: z.string(), item: ItemDtoSchema.nullable() }),
  /** A project memory entry was proposed, verified, unverified, edited, retired or marked stale; or memory was purged (`entry` null). */
  'memory.changed': z.object({
    change: z.enum(['proposed', 'verified', 'retired', 'stale', 'purged', 'edited', 'unverified']),
    id: z.string().nullable(),
    entry: MemoryEntryDtoSchema.nullable(),
  }),
  /** An agent's conversation took a turn, was compacted, or started over (the demo restarting). */
  'conversation.changed': z.object({
    agentId: z.string(),
    change: z.enum(['turn', 'compaction', 'reset']),
    /** Tokens of system prompt, summary and history after the change. */
    tokens: z.number().int().nonnegative(),
  }),
  /** A run started, paused, stopped or finished. */
  'run.changed': z.object({ run: RunDtoSchema }),
  /** The active run's turn and agent counts as they move, at most four times a second (`[run-progress]`). */
  'run.progress': z.object({ run: RunDtoSchema }),
  /*
   * The four runtime events below are batched: the host sends each at most four times a second with
   * everything that happened since, so a busy run stays under about 20 messages a second.
   */
  /** Turns that completed since the last batch. */
  'turn.completed': z.object({
    turns: z.array(z.object({ agentId: z.string(), turn: z.number().int().positive(), generation: z.number().int().nonnegative(), toolCalls: z.number().int().nonnegative(), done: z.boolean(), at: z.number() })),
  }),
  /** Generations agents began since the last batch (per generation, `generation.started` carries the boundary). */
  'generation.created': z.object({
    generations: z.array(z.object({ agentId: z.string(), generation: z.number().int().positive(), previous: z.number().int().positive().nullable(), reason: z.string() })),
  }),
  /** Context-limit refreshes since the last batch: the agent continues in generation `to`. */
  'context.refreshed': z.object({ refreshes: z.array(z.object({ agentId: z.string(), from: z.number().int().nonnegative(), to: z.number().int().positive(), reason: z.string() })) }),
  /** Provider calls accounted since the last batch (provider figures, or the cache model's when `modeled`). */
  'usage.recorded': z.object({ calls: z.array(CallDtoSchema) }),
  /** A trace was imported into the workspace catalog (not sent when the same bytes were already there). */
  'trace.imported': z.object({ trace: TraceDtoSchema }),
  /** An imported trace was removed from the workspace catalog (`removeTrace`). */
  'trace.removed': z.object({ traceId: z.string() }),
  /**
   * A comparison's replays progressed or it ended: at most one per finished replay and at most
   * about 20 a second over all comparisons; the last one of a comparison carries its final status.
   */
  'comparison.progress': z.object({
    comparisonId: z.string(),
    done: z.number().int().nonnegative(),
    total: z.number().int().positive(),
    status: ComparisonStatusSchema,
  }),
  /** An attached live session's file or figures changed (at most 10 a second per session); `getSession` gives its series. */
  'session.updated': z.object({ session: LiveSessionDtoSchema }),
  /** A live session was detached (by a view, or because the host closed). */
  'session.detached': z.object({ sessionId: z.string() }),
  /** The gateway started, stopped or failed to start. */
  'gateway.status': z.object({ status: GatewayStatusDtoSchema }),
  /** Gateway sessions whose figures or mode changed (batched: at most four a second). */
  'gateway.session': z.object({ sessions: z.array(GatewaySessionDtoSchema) }),
  /** Gateway calls that started, got usage or ended (batched: at most four a second; a call's latest state once per batch). */
  'gateway.call': z.object({ calls: z.array(GatewayCallDtoSchema) }),
  /**
   * A command from the desktop application menu for the views: show a view, or open the purge
   * confirmation (purging itself stays the view's confirmed `purgeMemory` call). Sent by the
   * Electron shell to its own window only, never by the host.
   */
  'app.command': z.object({ command: z.enum(APP_COMMANDS) }),
} as const;

export type EventName = keyof typeof Events;
export type EventPayload<K extends EventName> = z.infer<(typeof Events)[K]>;

/** The wire form of one event: a tagged union, so reducers can switch on `name`. */
export type StrataEvent = { [K in EventName]: { name: K; payload: EventPayload<K> } }[EventName];

/** Event names in declaration order (runtime list for transports and validation). */
export const eventNames = Object.keys(Events) as EventName[];
