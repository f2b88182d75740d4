import type { AgentRecord, Catalog } from '../node/catalog/Catalog';
import type { Clock } from '../ports/Clock';

/** What a writer says about an agent; the row's revision and time are stamped by {@link AgentRows}. */
export type AgentFields = Omit<AgentRecord, 'revision' | 'updatedAt'>;

/**
 * The one writer of the catalog's agent rows: a run adding and updating its agents and the host
 * syncing an agent to its engine all go through here, so every row is stamped the same way (the
 * next revision of that id, the wall clock's time) and a revision never repeats or goes back, even
 * across a run that starts over and reuses the ids.
 */
export class AgentRows {
  constructor(
    private readonly catalog: Catalog,
    private readonly wallClock: Clock,
  ) {}

  /** A new agent: waiting, generation 1, no tokens or usage yet. */
  add(a: Pick<AgentRecord, 'agentId' | 'parent' | 'role' | 'task' | 'model' | 'budget'>): AgentRecord {
    const fields: AgentFields = { ...a, status: 'waiting', generation: 1, tokens: 0, usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 } };
    return this.#write(fields, this.catalog.getAgent(a.agentId));
  }

  /** Change a stored agent; undefined (nothing written) when there is no such row. */
  update(agentId: string, change: (current: AgentRecord) => AgentFields): AgentRecord | undefined {
    const current = this.catalog.getAgent(agentId);
    return current ? this.#write(change(current), current) : undefined;
  }

  /** Remove every agent (a run starting over; see `Catalog.clearAgents`). */
  clear(): void {
    this.catalog.clearAgents();
  }

  #write(fields: AgentFields, previous: AgentRecord | undefined): AgentRecord {
    const record: AgentRecord = {
      agentId: fields.agentId,
      parent: fields.parent,
      role: fields.role,
      task: fields.task,
      model: fields.model,
      status: fields.status,
      generation: fields.generation,
      tokens: fields.tokens,
      budget: fields.budget,
      usage: { ...fields.usage },
      revision: (previous?.revision ?? -1) + 1,
      updatedAt: new Date(this.wallClock.now()).toISOString(),
    };
    this.catalog.putAgent(record);
    return record;
  }
}
