import { z } from 'zod';
import { AgentDtoSchema, LogEntrySchema } from './dto';
import { BoundaryDtoSchema, ItemChangeSchema, ItemDtoSchema } from './engineDto';
import { MemoryEntryDtoSchema } from './memoryDto';

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
  /** A project memory entry was proposed, verified, retired or marked stale; or memory was purged (`entry` null). */
  'memory.changed': z.object({
    change: z.enum(['proposed', 'verified', 'retired', 'stale', 'purged']),
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
} as const;

export type EventName = keyof typeof Events;
export type EventPayload<K extends EventName> = z.infer<(typeof Events)[K]>;

/** The wire form of one event: a tagged union, so reducers can switch on `name`. */
export type StrataEvent = { [K in EventName]: { name: K; payload: EventPayload<K> } }[EventName];

/** Event names in declaration order (runtime list for transports and validation). */
export const eventNames = Object.keys(Events) as EventName[];
