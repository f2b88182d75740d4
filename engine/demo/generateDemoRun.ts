import type { AgentRole } from '../contract';
import type { AgentIdentity } from '../generations/AgentIdentity';
import type { ItemInput } from '../items/createItem';
import type { RecordedTurn } from '../runtime/TraceDriver';
import { BEHAVIORS, MODELS, TASKS, type Draft, type TurnOutcome } from './agents';
import { Rng } from './prng';
import { World, type DemoFiles } from './world';

/** An item the host pins at the start of the run; it supplies `at` (its clock). */
type PinnedItem = Omit<ItemInput, 'at'>;

/** A generated multi-agent session, ready for `new TraceDriver(script.scripts)`. */
export interface DemoRunScript {
  seed: number;
  workspace: { name: string; files: Record<string, string> };
  /** The root agent: `runtime.addAgent(script.primary)`; every other agent is spawned by a recorded turn. */
  primary: AgentIdentity;
  /** Recorded turns per agent id (the primary and every spawned agent). */
  scripts: Map<string, RecordedTurn[]>;
  /** Objective, acceptance and constraints the host adds to the engine before the first turn. */
  pinned: PinnedItem[];
  /** The agent of every step, in the order the runtime's round-robin scheduler runs them. */
  order: string[];
}

const TASK_ID = 'task:primary';

const PINNED: PinnedItem[] = [
  { id: 'objective', kind: 'objective', class: 'task_state', title: 'Objective', content: 'Add refresh-token rotation to the payments API without breaking existing sessions.', source: 'user_requirement', agentId: 'user', taskId: TASK_ID, mandatory: true },
  {
    id: 'acceptance',
    kind: 'acceptance',
    class: 'task_state',
    title: 'Acceptance',
    content: 'Every refresh rotates the token; reusing a rotated refresh token revokes its whole family; of concurrent refreshes of one token exactly one wins; existing (legacy) sessions keep working; tests/integration/refresh.spec.ts passes.',
    source: 'user_requirement',
    agentId: 'user',
    taskId: TASK_ID,
    mandatory: true,
  },
  { id: 'constraint:no-token-logs', kind: 'constraint', class: 'task_state', title: 'Constraint', content: 'Never log token values or token hashes.', source: 'user_requirement', agentId: 'user', taskId: TASK_ID, pinned: true },
  { id: 'constraint:no-downtime', kind: 'constraint', class: 'task_state', title: 'Constraint', content: 'No downtime: schema changes are additive and nullable; no table rewrite.', source: 'user_requirement', agentId: 'user', taskId: TASK_ID, pinned: true },
];

/** Steps after which the generator gives up (a behaviour that never finishes is a bug). */
const MAX_STEPS = 3000;

/**
 * Generate the demo run from the repository `files` (resources/demo/workspace; pure and
 * deterministic: the same files and seed give the same script byte for byte; no clock, no
 * `Math.random`, no I/O). A primary plans and spawns a probe, four workers, a
 * test agent (which spawns a debug agent when its concurrency test shows a race) and a reviewer
 * that depends on the workers and the test agent. The agents work on a virtual payments API: the
 * generator runs them turn by turn in the exact order the runtime's round-robin scheduler will
 * replay them, applies their edits to the virtual files, and records every tool result from the
 * files as they are at that moment (grep hits, file contents, failing then passing test runs,
 * diffs). Two long-running workers hit a provider context limit once each.
 */
export function generateDemoRun(files: DemoFiles, seed = 1): DemoRunScript {
  const world = new World(seed, files);
  const primary: AgentIdentity = {
    agentId: 'primary',
    parent: null,
    role: 'primary',
    taskId: TASK_ID,
    task: TASKS.primary,
    scope: {},
    model: MODELS.main,
    workspace: 'demo',
    budget: 96_000,
  };
  const scripts = new Map<string, RecordedTurn[]>();
  const runners = new Map<string, { gen: Generator<Draft, void, TurnOutcome>; last: TurnOutcome | undefined }>();
  const order: string[] = [];
  const steps: string[] = [];

  const add = (agentId: string, role: AgentRole, parent: string | null, task: string, dependsOn: string[]) => {
    const behavior = BEHAVIORS[agentId];
    if (!behavior) throw new RangeError(`no behaviour for the demo agent ${agentId}`);
    world.agents.set(agentId, { agentId, role, parent, task, dependsOn, status: 'waiting', turns: 0, lastText: '' });
    runners.set(agentId, { gen: behavior({ id: agentId, rng: Rng.derive(seed, agentId), world }), last: undefined });
    scripts.set(agentId, []);
    order.push(agentId);
  };
  add(primary.agentId, primary.role, null, primary.task, []);

  // The runtime's scheduler (AgentRuntime.step): round robin over runnable agents in the order they were added.
  let cursor = 0;
  for (;;) {
    if (steps.length > MAX_STEPS) throw new Error(`the demo run did not finish in ${MAX_STEPS} steps`);
    const ready = order.filter((id) => world.agent(id).status === 'waiting' && world.runnableNow(id));
    if (ready.length === 0) break;
    const pick = ready.find((id) => order.indexOf(id) >= cursor) ?? (ready[0] as string);
    cursor = order.indexOf(pick) + 1;
    const agent = world.agent(pick);
    const runner = runners.get(pick) as { gen: Generator<Draft, void, TurnOutcome>; last: TurnOutcome | undefined };
    agent.status = 'running';
    const next = runner.gen.next(runner.last as TurnOutcome);
    if (next.done) throw new Error(`demo agent ${pick} stopped without a done turn`);
    const draft = next.value;
    const turn = agent.turns + 1;
    world.clock += world.rng.int(9, 48);
    const calls = draft.calls ?? [];
    const results = calls.map((c) => world.execute(c));
    const toolCalls = calls.map((c, k) => ({ id: `${pick}-t${turn}-c${k + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
    const recorded: RecordedTurn = { text: draft.text, toolCalls };
    if (toolCalls.length > 0) recorded.results = results.map((r, k) => ({ callId: (toolCalls[k] as { id: string }).id, content: r.content, isError: r.isError }));
    if (draft.spawn && draft.spawn.length > 0) recorded.spawn = draft.spawn;
    if (draft.findings && draft.findings.length > 0) recorded.findings = draft.findings;
    for (const f of draft.findings ?? []) world.findings.push({ agentId: pick, title: f.title });
    if (draft.contextLimit) recorded.contextLimit = draft.contextLimit;
    if (draft.done) recorded.done = true;
    (scripts.get(pick) as RecordedTurn[]).push(recorded);
    steps.push(pick);
    agent.turns = turn;
    agent.lastText = draft.text;
    runner.last = { turn, results };
    for (const s of draft.spawn ?? []) {
      if (!world.agents.has(s.agentId)) add(s.agentId, s.role, pick, s.task, (s.dependsOn ?? []).filter((d) => world.agents.has(d)));
    }
    agent.status = draft.done ? 'done' : 'waiting';
  }
  const unfinished = order.filter((id) => !world.isDone(id));
  if (unfinished.length > 0) throw new Error(`demo agents never finished: ${unfinished.join(', ')}`);

  return {
    seed,
    workspace: { name: 'demo: payments API refresh-token rotation', files: { ...files } },
    primary,
    scripts,
    pinned: PINNED.map((p) => ({ ...p })),
    order: steps,
  };
}

export interface DemoRunStats {
  agents: number;
  agentsByRole: Partial<Record<AgentRole, number>>;
  turns: number;
  turnsByAgent: Record<string, number>;
  toolCalls: number;
  toolCallsByName: Record<string, number>;
  /** `npm test` runs: failing (exit code not 0) and passing. */
  testRuns: { failing: number; passing: number };
  edits: number;
  findings: number;
  spawns: number;
  contextLimits: number;
}

/** Counts of a script (for tests and the host's log line). */
export function demoRunStats(script: DemoRunScript): DemoRunStats {
  const roles = new Map<string, AgentRole>([[script.primary.agentId, script.primary.role]]);
  const stats: DemoRunStats = { agents: 0, agentsByRole: {}, turns: 0, turnsByAgent: {}, toolCalls: 0, toolCallsByName: {}, testRuns: { failing: 0, passing: 0 }, edits: 0, findings: 0, spawns: 0, contextLimits: 0 };
  for (const [agentId, turns] of script.scripts) {
    stats.turnsByAgent[agentId] = turns.length;
    stats.turns += turns.length;
    for (const t of turns) {
      for (const s of t.spawn ?? []) {
        roles.set(s.agentId, s.role);
        stats.spawns++;
      }
      stats.findings += t.findings?.length ?? 0;
      if (t.contextLimit) stats.contextLimits++;
      for (const c of t.toolCalls) {
        stats.toolCalls++;
        stats.toolCallsByName[c.name] = (stats.toolCallsByName[c.name] ?? 0) + 1;
        if (c.name === 'edit_file') stats.edits++;
        if (c.name === 'run_command' && /^npm test\b/.test(String((JSON.parse(c.arguments) as { command?: unknown }).command))) {
          const failed = t.results?.find((r) => r.callId === c.id)?.isError ?? false;
          if (failed) stats.testRuns.failing++;
          else stats.testRuns.passing++;
        }
      }
    }
  }
  for (const role of roles.values()) stats.agentsByRole[role] = (stats.agentsByRole[role] ?? 0) + 1;
  stats.agents = roles.size;
  return stats;
}

/** The stats in one line, e.g. for the host's log. */
export function formatDemoRunStats(s: DemoRunStats): string {
  const roles = Object.entries(s.agentsByRole)
    .map(([role, n]) => `${n} ${role}`)
    .join(', ');
  const tools = Object.entries(s.toolCallsByName)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return `${s.agents} agents (${roles}), ${s.turns} turns, ${s.toolCalls} tool calls (${tools}), test runs ${s.testRuns.failing} failing / ${s.testRuns.passing} passing, ${s.findings} findings, ${s.contextLimits} context limits`;
}
