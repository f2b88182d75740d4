import type { LogEntry } from '../contract';
import type { AgentRecord, Catalog } from '../catalog/Catalog';
import type { Engine, BuildResult } from '../Engine';
import { type Clock, manualClock } from '../ports/Clock';
import { ContextLimitError } from '../refresh/ContextLimitError';
import type { DemoItem, DemoScenario, DemoStep } from './demoScenario';

/** Who else follows the demo's agent turns (the host's conversations). */
export interface DemoObserver {
  /** The engine started over (a new player, a restart of the scenario, a rebuild after a failed step). */
  reset(): void;
  /** An agent took a turn: `items` are what it produced since its previous turn; `first` on its first turn. */
  turn(agent: DemoScenario['agents'][number], step: DemoStep, index: number, items: readonly DemoItem[], first: boolean, engine: Engine): void;
}

const SEEDED_KEY = 'demo.seeded';
const POSITION_KEY = 'demo.position';
/** Scenario time of step 0; step i happens a minute later per step, so replays are identical. */
const SCENARIO_T0 = Date.parse('2026-01-05T09:00:00Z');
const STEP_MS = 60_000;

export interface DemoChange {
  agents: AgentRecord[];
  log: LogEntry[];
}

/**
 * Plays the demo scenario: seeds the agents into an empty catalog once, then applies one step
 * per `step()`: the step's items enter the engine's pool and the agent's turn is built by the real
 * engine (a context-limit step refreshes it), while status, usage and the log line go to the
 * catalog in one transaction. The engine lives in memory, so opening a host replays the steps
 * already played (deterministically, in scenario time) to restore it.
 */
export class DemoPlayer {
  private engineClock = manualClock(SCENARIO_T0);
  engine: Engine;

  constructor(
    private readonly catalog: Catalog,
    private readonly scenario: DemoScenario,
    private readonly clock: Clock,
    private readonly newEngine: (clock: Clock) => Engine,
    /** Called before each agent turn the scenario builds (the host recalls project memory there). */
    private readonly beforeBuild: (engine: Engine, agentId: string, now: number) => void = () => {},
    private readonly observer?: DemoObserver,
  ) {
    this.engine = this.freshEngine();
  }

  /** Items each agent produced since its last turn, and the agents that have had one. */
  private pending = new Map<string, DemoItem[]>();
  private started = new Set<string>();

  private freshEngine(): Engine {
    this.engineClock = manualClock(SCENARIO_T0);
    this.pending = new Map();
    this.started = new Set();
    this.observer?.reset();
    const engine = this.newEngine(this.engineClock);
    for (const a of this.scenario.agents) {
      engine.registerAgent({ agentId: a.agentId, parent: a.parent, role: a.role, taskId: taskOf(a.agentId), task: a.task, scope: {}, model: a.model, workspace: 'demo', budget: a.budget });
    }
    return engine;
  }

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

  /** Replay the steps already played into the engine (the catalog is not touched). */
  restore(): void {
    const position = this.position();
    for (let i = 0; i < position && i < this.scenario.steps.length; i++) this.applyToEngine(this.scenario.steps[i] as DemoStep, i);
  }

  /**
   * Apply the next step and return what changed in the catalog. If the step's transaction fails,
   * the catalog is unchanged and the engine is rebuilt from it, so the two never disagree.
   */
  step(): DemoChange {
    try {
      return this.applyNext();
    } catch (err) {
      this.engine = this.freshEngine();
      this.restore();
      throw err;
    }
  }

  private applyNext(): DemoChange {
    return this.catalog.transaction(() => {
      const position = this.position();
      if (position >= this.scenario.steps.length) {
        this.engine = this.freshEngine();
        const agents = this.resetAgents();
        this.catalog.setMeta(POSITION_KEY, '0');
        return { agents, log: [this.catalog.appendLog(this.logLine(null, 'info', 'Demo scenario restarted'))] };
      }
      const step = this.scenario.steps[position] as DemoStep;
      this.catalog.setMeta(POSITION_KEY, String(position + 1));
      const current = this.catalog.getAgent(step.agentId);
      if (!current) return { agents: [], log: [] };
      const built = this.applyToEngine(step, position);
      const next = applyStep(current, step, this.isoNow(), built ? { tokens: built.generation.tokens, generation: built.generation.number } : undefined);
      this.catalog.putAgent(next);
      return { agents: [next], log: [this.catalog.appendLog(this.logLine(step.agentId, step.level, step.log))] };
    });
  }

  private applyToEngine(step: DemoStep, index: number): BuildResult | undefined {
    const at = SCENARIO_T0 + index * STEP_MS;
    this.engineClock.set(at);
    for (const it of step.items ?? []) {
      const producer = it.agentId ?? step.agentId;
      this.engine.addItem({ ...it, agentId: producer, taskId: taskOf(producer), at });
      if (producer === step.agentId) this.pending.set(producer, [...(this.pending.get(producer) ?? []), it]);
    }
    if (step.contextLimit) return this.engine.maybeRefresh(step.agentId, new ContextLimitError(step.contextLimit, 'demo'))?.result;
    if (step.build) {
      this.beforeBuild(this.engine, step.agentId, at);
      const built = this.engine.build(step.agentId, { phase: step.build.phase, ...(step.build.input ? { input: step.build.input } : {}) });
      const agent = this.scenario.agents.find((a) => a.agentId === step.agentId);
      if (agent && this.observer) {
        this.observer.turn(agent, step, index, this.pending.get(agent.agentId) ?? [], !this.started.has(agent.agentId), this.engine);
        this.started.add(agent.agentId);
        this.pending.delete(agent.agentId);
      }
      return built;
    }
    return undefined;
  }

  private position(): number {
    return Number(this.catalog.getMeta(POSITION_KEY) ?? '0');
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

/** Every demo agent works on its own task. */
export const taskOf = (agentId: string): string => `task:${agentId}`;

/** The agent after one scenario step (pure); `context` carries what the engine built. */
export function applyStep(a: AgentRecord, step: DemoStep, at: string, context?: { tokens: number; generation: number }): AgentRecord {
  const u = step.usage;
  return {
    ...a,
    status: step.status ?? a.status,
    generation: context?.generation ?? a.generation,
    tokens: context?.tokens ?? a.tokens,
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
