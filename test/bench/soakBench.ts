// Soak: the demo workload at 50x speed (one turn every 30 ms instead of 1,500 ms, on real timers)
// for 10,000 turns across 50 agents, through the host's run machinery (HostRun: the agent runtime,
// the trace driver, the provider cache model, the catalog mirror in one transaction per turn).
// Prints turns per second, host heap at start and end, and the catalog size; writes
// test/bench/results/soak.json. Not a test: it asserts nothing and never fails on timing.
// Run with `npm run bench:soak` (`-- --turns 2000` for a shorter run, `-- --agents 5` for fewer,
// longer-lived agents: each then reaches its per-agent history caps and the heap levels off).
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../engine/node/catalog/Catalog';
import { DEFAULT_CONTEXT_CONFIG } from '../../engine/conversation/contextConfig';
import { Engine } from '../../engine/Engine';
import { generateDemoRun } from '../../engine/demo/generateDemoRun';
import { demoToolItems } from '../../engine/demo/demoToolItems';
import { HostRun } from '../../engine/host/HostRun';
import { cacheHitRate } from '../../engine/metrics/cacheHitRate';
import { systemScheduler } from '../../engine/ports/systemScheduler';
import { manualClock, systemClock } from '../../engine/ports/Clock';
import { createCacheModel } from '../../engine/providers/cacheModel';
import { priceWithCacheModel } from '../../engine/runtime/priceWithCacheModel';
import type { RecordedTurn } from '../../engine/runtime/TraceDriver';
import { TraceDriver } from '../../engine/runtime/TraceDriver';
import { createTiktokenTokenizer } from '../../engine/tokens/tiktokenTokenizer';
import { AgentRows } from '../../engine/host/AgentRows';
import { demoFiles } from '../support/demoFiles';
import { tempDir } from '../support/tempDir';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TURNS = arg('turns', 10_000);
const AGENTS = arg('agents', 50);
const TICK_MS = arg('tick', 30);
const MiB = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

/**
 * A primary that spawns AGENTS-1 workers on its first turn; each worker replays the turns of one
 * demo agent (seeds 1, 2, … so the material differs), cycled until the run holds TURNS turns.
 */
function soakScript() {
  const pool: RecordedTurn[][] = [];
  for (let seed = 1; pool.length < AGENTS - 1; seed++) {
    for (const [id, turns] of generateDemoRun(demoFiles, seed).scripts) if (id !== 'primary' && pool.length < AGENTS - 1) pool.push(turns.map((t) => ({ ...t, spawn: undefined, done: false })));
  }
  const base = generateDemoRun(demoFiles, 1);
  const perWorker = Math.ceil((TURNS - 2) / (AGENTS - 1));
  const scripts = new Map<string, RecordedTurn[]>();
  const workers = pool.map((_, i) => `soak-worker-${String(i + 1).padStart(2, '0')}`);
  scripts.set('primary', [
    { text: `Splitting the work across ${workers.length} workers.`, toolCalls: [], spawn: workers.map((agentId, i) => ({ agentId, role: 'worker' as const, task: `Soak task ${i + 1}: ${base.primary.task}`, budget: 32_000 })) },
    { text: 'All workers are done.', toolCalls: [], done: true },
  ]);
  workers.forEach((agentId, w) => {
    const source = pool[w]!;
    const turns: RecordedTurn[] = [];
    for (let t = 0; t < perWorker; t++) {
      const s = source[t % source.length]!;
      const suffix = `-${w}-${t}`;
      turns.push({
        ...s,
        contextLimit: undefined,
        toolCalls: s.toolCalls.map((c) => ({ ...c, id: c.id + suffix })),
        ...(s.results ? { results: s.results.map((r) => ({ ...r, callId: r.callId + suffix })) } : {}),
        findings: s.findings,
        done: t === perWorker - 1,
      });
    }
    scripts.set(agentId, turns);
  });
  return { primary: base.primary, pinned: base.pinned, scripts };
}

const tmp = tempDir('strata-soak-');
const catalogPath = join(tmp.dir, 'catalog.sqlite');
const catalog = Catalog.open(catalogPath);
const tokenizer = createTiktokenTokenizer();
const script = soakScript();
const clock = manualClock(Date.parse('2026-01-05T09:00:00Z'));
const engine = new Engine({ tokenizer, clock });
let itemSeq = 0;
engine.on((e) => {
  if (e.type === 'item.added' || e.type === 'item.changed') catalog.putItem(e.item, itemSeq++);
  if (e.type === 'generation.built') catalog.saveGeneration(engine.generation(e.agentId, e.generation), 200);
});
const run = new HostRun(
  {
    runId: 'soak',
    driver: 'trace',
    label: 'soak',
    tickMs: TICK_MS,
    primary: script.primary,
    seed: script.pinned.map((p) => ({ ...p, at: clock.now() })),
    makeDriver: () => new TraceDriver(script.scripts),
    toolItems: demoToolItems,
    priceCall: priceWithCacheModel(createCacheModel({ provider: 'anthropic' }), tokenizer),
    clock,
    beforeTurn: () => clock.advance(2_000),
    maxTurnsPerAgent: Math.ceil(TURNS / Math.max(1, AGENTS - 1)) + 2,
    onCommitFailure: 'stop',
  },
  { catalog, agents: new AgentRows(catalog, systemClock), engine, tokenizer, context: { ...DEFAULT_CONTEXT_CONFIG, strategy: 'compress', maxTokens: 8000, preserveRecentTurns: 2 }, scheduler: systemScheduler, wallClock: systemClock, onRuntimeEvent: () => {}, onAgent: () => {}, onLog: () => {}, onRunChanged: () => {} },
);

const heapStart = heap();
const samples: { turns: number; heapMiB: number; seconds: number }[] = [];
const t0 = performance.now();
catalog.transaction(() => run.seed());
run.start();
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const seconds = (performance.now() - t0) / 1000;
    if (samples.length === 0 || run.turns - samples.at(-1)!.turns >= 1000) {
      samples.push({ turns: run.turns, heapMiB: MiB(heap()), seconds: Number(seconds.toFixed(1)) });
      process.stderr.write(`  ${run.turns} turns, ${seconds.toFixed(0)} s, heap ${MiB(process.memoryUsage().heapUsed)} MiB\n`);
    }
    if (run.status === 'finished' || run.status === 'stopped' || run.turns >= TURNS) {
      clearInterval(timer);
      run.stop('soak done');
      resolve();
    }
  }, 200);
});
await run.idle();
const seconds = (performance.now() - t0) / 1000;
const heapEnd = heap();
const catalogBytes = ['', '-wal'].reduce((n, s) => n + (statSync(catalogPath + s, { throwIfNoEntry: false })?.size ?? 0), 0);
const agents = run.runtime.agentIds();
const totals = agents.map((id) => run.runtime.ledger.totals(id));
const summed = { input: totals.reduce((n, t) => n + t.input, 0), cacheRead: totals.reduce((n, t) => n + t.cacheRead, 0), cacheWrite: totals.reduce((n, t) => n + t.cacheWrite, 0) };
const result = {
  turns: run.turns,
  agents: agents.length,
  tickMs: TICK_MS,
  seconds: Number(seconds.toFixed(1)),
  turnsPerSecond: Number((run.turns / seconds).toFixed(1)),
  heapStartMiB: MiB(heapStart),
  heapEndMiB: MiB(heapEnd),
  catalogMiB: MiB(catalogBytes),
  poolItems: engine.items().length,
  poolByClass: engine.items().reduce<Record<string, number>>((n, i) => ({ ...n, [i.class]: (n[i.class] ?? 0) + 1 }), {}),
  modeledCacheHitRate: Number(cacheHitRate(summed).toFixed(3)),
  samples,
};
console.log(`soak: ${result.turns} turns across ${result.agents} agents at one turn per ${TICK_MS} ms (50x the demo's 1,500 ms)`);
console.log(`  ${result.turnsPerSecond} turns/s over ${result.seconds} s`);
console.log(`  host heap ${result.heapStartMiB} MiB at start, ${result.heapEndMiB} MiB at end (samples every 1,000 turns: ${samples.map((s) => s.heapMiB).join(', ')})`);
console.log(`  catalog ${result.catalogMiB} MiB, ${result.poolItems} pool items (${Object.entries(result.poolByClass).map(([c, n]) => `${c} ${n}`).join(', ')}), modeled cache hit rate ${result.modeledCacheHitRate}`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'soak.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
if (process.argv.includes('--inspect-state')) {
  const gens = agents.map((id) => engine.generations(id));
  const count = gens.reduce((n, g) => n + g.length, 0);
  const included = gens.flat().reduce((n, g) => n + g.included.length, 0);
  const dropped = gens.flat().reduce((n, g) => n + g.dropped.length, 0);
  const convs = agents.map((id) => run.runtime.conversation(id).snapshot());
  const convBytes = convs.reduce((n, c) => n + JSON.stringify(c).length, 0);
  const reasons = new Map<string, number>();
  for (const g of gens.flat()) reasons.set(`${g.boundary.kind}: ${g.boundary.reason.slice(0, 60)}`, (reasons.get(`${g.boundary.kind}: ${g.boundary.reason.slice(0, 60)}`) ?? 0) + 1);
  console.log([...reasons].sort((a, b) => b[1] - a[1]).slice(0, 8));
  console.log(`  state: ${count} generations, ${included} included entries, ${dropped} dropped entries; conversations ${MiB(convBytes)} MiB of JSON; items content ${MiB(engine.items().reduce((n, i) => n + i.content.length, 0))} MiB`);
}
if (process.argv.includes('--snapshot')) console.log(`  heap snapshot: ${(await import('node:v8')).writeHeapSnapshot(join(dirname(out), 'soak.heapsnapshot'))}`);
catalog.close();
tmp.remove();
