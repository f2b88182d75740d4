import type { AgentRecord, Catalog } from '../node/catalog/Catalog';
import type { Clock } from '../ports/Clock';

/** What a writer says about an agent; the row's revision and time are stamped by {@link AgentRows}. */
export type AgentFields = Omit<AgentRecord, 'revision' | 'updatedAt'>;

/** Catalog meta key: the highest revision a cleared row had, so a run starting over numbers on from there. */
const REVISION_FLOOR_KEY = 'agents.revisionFloor';

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

  /**
   * Remove every agent (a run starting over; see `Catalog.clearAgents`). The highest revision the
   * rows had is kept as a floor, so the new run's rows (the same ids again) number on from it: a view
   * that drops older revisions takes them as news, not as a roll back (`[run-follow]`).
   */
  clear(): void {
    this.catalog.transaction(() => {
      const floor = Math.max(this.#floor(), ...this.catalog.listAgents().map((a) => a.revision));
      this.catalog.setMeta(REVISION_FLOOR_KEY, String(floor));
      this.catalog.clearAgents();
    });
  }

  #floor(): number {
    const stored = Number(this.catalog.getMeta(REVISION_FLOOR_KEY) ?? '-1');
    return Number.isInteger(stored) ? stored : -1;
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
      revision: (previous?.revision ?? this.#floor()) + 1,
      updatedAt: new Date(this.wallClock.now()).toISOString(),
    };
    this.catalog.putAgent(record);
    return record;
  }
}
