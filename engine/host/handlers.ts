import type { z } from 'zod';
import { type CommandName, type CommandResult, Commands, StrataError } from '../contract';
import type { Catalog } from '../catalog/Catalog';
import type { ClientSession } from './ClientSession';
import { toAgentDto } from './toAgentDto';

/** What a handler may use: the host's state, never the transport. */
export interface HostContext {
  catalog: Catalog;
  version: string;
  workspaceName: string;
  uptimeMs(): number;
}

/** Arguments after validation (defaults applied). */
export type ParsedArgs<K extends CommandName> = z.output<(typeof Commands)[K]['args']>;

export type Handler<K extends CommandName> = (
  args: ParsedArgs<K>,
  session: ClientSession,
) => CommandResult<K> | Promise<CommandResult<K>>;

/** One handler per contract command: a missing handler is a compile error. */
export type Handlers = { [K in CommandName]: Handler<K> };

const RECENT_LOG = 50;

export function createHandlers(ctx: HostContext): Handlers {
  const { catalog } = ctx;
  return {
    health: () => ({
      ok: true,
      version: ctx.version,
      workspace: { name: ctx.workspaceName, catalogPath: catalog.path },
      catalog: { schemaVersion: catalog.schemaVersion(), journalMode: catalog.journalMode() },
      agents: catalog.countAgents(),
      uptimeMs: ctx.uptimeMs(),
    }),

    listAgents: () => ({ agents: catalog.listAgents().map(toAgentDto) }),

    getAgent: ({ agentId }) => {
      const agent = catalog.getAgent(agentId);
      if (!agent) throw new StrataError('not_found', `No agent "${agentId}" in workspace "${ctx.workspaceName}".`);
      return {
        agent: toAgentDto(agent),
        children: catalog.childrenOf(agentId),
        recentLog: catalog.recentLog(RECENT_LOG, agentId),
      };
    },

    subscribe: ({ events }, session) => {
      session.setSubscriptions(events);
      return { events: session.subscriptions() };
    },
  };
}
