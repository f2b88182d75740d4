import type { LogEntry } from '../contract';
import type { AgentRecord, Catalog } from '../catalog/Catalog';
import type { Clock } from '../ports/Clock';
import type { DemoScenario, DemoStep } from './demoScenario';

const SEEDED_KEY = 'demo.seeded';
const POSITION_KEY = 'demo.position';

export interface DemoChange {
  agents: AgentRecord[];
  log: LogEntry[];
}

/**
 * Seeds the demo agents into an empty catalog once, then applies one scenario step per `step()`.
 * Each step is one catalog transaction (agent row + log line); the position is stored too, so a
 * restarted host continues where it stopped. At the end the scenario starts over from its
 * initial state.
 */
export class DemoPlayer {
  constructor(
    private readonly catalog: Catalog,
    private readonly scenario: DemoScenario,
    private readonly clock: Clock,
  ) {}

  /** Insert the scenario's agents if this catalog was never seeded. Returns true if it seeded. */
  seedIfNew(): boolean {
    if (this.catalog.getMeta(SEEDED_KEY) !== undefined) return false;
    this.catalog.transaction(() => {
      this.resetAgents();
      this.catalog.appendLog(this.logLine(null, 'info', `Demo workspace "${this.scenario.workspace.name}" loaded`));
      this.catalog.setMeta(SEEDED_KEY, '1');
      this.catalog.setMeta(POSITION_KEY, '0');
    });
    return true;
  }

  /** Apply the next step and return what changed. */
  step(): DemoChange {
    return this.catalog.transaction(() => {
      const position = Number(this.catalog.getMeta(POSITION_KEY) ?? '0');
      if (position >= this.scenario.steps.length) {
        const agents = this.resetAgents();
        this.catalog.setMeta(POSITION_KEY, '0');
        return { agents, log: [this.catalog.appendLog(this.logLine(null, 'info', 'Demo scenario restarted'))] };
      }
      const step = this.scenario.steps[position] as DemoStep;
      this.catalog.setMeta(POSITION_KEY, String(position + 1));
      const current = this.catalog.getAgent(step.agentId);
      if (!current) return { agents: [], log: [] };
      const next = applyStep(current, step, this.isoNow());
      this.catalog.putAgent(next);
      return { agents: [next], log: [this.catalog.appendLog(this.logLine(step.agentId, step.level, step.log))] };
    });
  }

  private resetAgents(): AgentRecord[] {
    const at = this.isoNow();
    return this.scenario.agents.map((a) => {
      const revision = (this.catalog.getAgent(a.agentId)?.revision ?? -1) + 1;
      const record: AgentRecord = {
        ...a,
        status: 'waiting',
        generation: 1,
        tokens: 0,
        usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
        revision,
        updatedAt: at,
      };
      this.catalog.putAgent(record);
      return record;
    });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }

  private logLine(agentId: string | null, level: LogEntry['level'], message: string): Omit<LogEntry, 'seq'> {
    return { at: this.isoNow(), level, agentId, message };
  }
}

/** The agent after one scenario step (pure). */
export function applyStep(a: AgentRecord, step: DemoStep, at: string): AgentRecord {
  const u = step.usage;
  return {
    ...a,
    status: step.status ?? a.status,
    generation: step.generation ?? a.generation,
    tokens: step.tokens ?? a.tokens,
    usage: u
      ? {
          input: a.usage.input + u.input,
          cacheRead: a.usage.cacheRead + u.cacheRead,
          cacheWrite: a.usage.cacheWrite + u.cacheWrite,
          output: a.usage.output + u.output,
        }
      : a.usage,
    revision: a.revision + 1,
    updatedAt: at,
  };
}
