import type { RecordedTurn } from '../runtime/TraceDriver';
import { generateDemoRun, type DemoRunScript } from './generateDemoRun';
import type { DemoFiles } from './world';

/** Agents a scaled demo may have at most (the primary included). */
const MAX_DEMO_AGENTS = 1000;

/**
 * The demo scaled to `agents` agents for load tests (`STRATA_DEMO_AGENTS`): a primary that spawns
 * `agents - 1` workers on its first turn; each worker replays the turns of one demo agent (seeds
 * 1, 2, … so the material differs), cycled to `turnsPerWorker` turns. The first cycle keeps its
 * context-limit turns, so refreshes happen. Pure and deterministic, like `generateDemoRun`.
 */
export function scaledDemoRun(files: DemoFiles, agents: number, turnsPerWorker = 120): DemoRunScript {
  if (!Number.isInteger(agents) || agents < 2 || agents > MAX_DEMO_AGENTS) throw new RangeError(`a scaled demo needs 2 to ${MAX_DEMO_AGENTS} agents (got ${agents})`);
  const base = generateDemoRun(files, 1);
  const pool: RecordedTurn[][] = [];
  for (let seed = 1; pool.length < agents - 1; seed++) {
    const run = seed === 1 ? base : generateDemoRun(files, seed);
    for (const [id, turns] of run.scripts) if (id !== 'primary' && pool.length < agents - 1) pool.push(turns);
  }
  const width = String(agents - 1).length;
  const workers = pool.map((_, i) => `worker-${String(i + 1).padStart(width, '0')}`);
  const scripts = new Map<string, RecordedTurn[]>();
  scripts.set(base.primary.agentId, [
    {
      text: `Splitting the work across ${workers.length} workers.`,
      toolCalls: [],
      spawn: workers.map((agentId, i) => ({ agentId, role: 'worker' as const, task: `Part ${i + 1} of: ${base.primary.task}`, budget: 32_000 })),
    },
    { text: 'All workers are done.', toolCalls: [], done: true },
  ]);
  workers.forEach((agentId, w) => {
    const source = pool[w] as RecordedTurn[];
    const turns: RecordedTurn[] = [];
    for (let t = 0; t < turnsPerWorker; t++) {
      const s = source[t % source.length] as RecordedTurn;
      const suffix = `-${w}-${t}`;
      const turn: RecordedTurn = {
        text: s.text,
        toolCalls: s.toolCalls.map((c) => ({ ...c, id: c.id + suffix })),
        ...(s.results ? { results: s.results.map((r) => ({ ...r, callId: r.callId + suffix })) } : {}),
        ...(s.findings ? { findings: s.findings } : {}),
        ...(s.contextLimit && t < source.length ? { contextLimit: s.contextLimit } : {}),
      };
      if (t === turnsPerWorker - 1) turn.done = true;
      turns.push(turn);
    }
    scripts.set(agentId, turns);
  });
  return { ...base, scripts, order: [] };
}

/**
 * `STRATA_DEMO_AGENTS`: the demo's agent count for load tests; absent or empty keeps the bundled
 * demo (undefined). A value that is not a whole number from 2 to MAX_DEMO_AGENTS is an error.
 */
export function demoAgentsFromEnv(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env.STRATA_DEMO_AGENTS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 2 || n > MAX_DEMO_AGENTS) throw new Error(`STRATA_DEMO_AGENTS must be a whole number from 2 to ${MAX_DEMO_AGENTS} (got "${raw}").`);
  return n;
}
