import { z } from 'zod';
import { AgentDetailDtoSchema, AgentDtoSchema, HealthDtoSchema } from './dto';
import { eventNames, type EventName } from './events';

const EventNameSchema = z.enum(eventNames as [EventName, ...EventName[]]);

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
