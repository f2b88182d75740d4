// Build latency and heap of the engine for pools of 1k, 10k and 100k items at a 32k budget, with a
// warm token cache. Prints a table and writes test/bench/results/engine.json. Not a test: it
// asserts nothing and never fails on timing. Run with `npm run bench:engine`.
import { generationTokens } from '../../engine/generations/Generation';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../engine/Engine';
import { manualClock } from '../../engine/ports/Clock';
import { createTiktokenTokenizer } from '../../engine/tokens/tiktokenTokenizer';
import { identity, T0, taskItems } from '../support/engineFixtures';
import { longLivedScenario } from '../support/longLivedScenario';

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

interface Row {
  pool: number;
  budget: number;
  iterations: number;
  p50Ms: number;
  p95Ms: number;
  included: number;
  promptTokens: number;
  heapMiB: number;
  heapBytesPerItem: number;
  tokenizerMissesDuringTimedBuilds: number;
}

// Load the encoder (about 100 MiB of ranks) before any baseline, so heap figures are the pool's.
const tokenizer = createTiktokenTokenizer('o200k_base');
tokenizer.count('warm up');

function bench(poolSize: number, budget: number): Row {
  const base = heap();
  const clock = manualClock(T0);
  const engine = new Engine({ tokenizer, clock });
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  // Realistic material from the long-lived scenario, repeated with fresh ids to reach the pool size.
  const turns = longLivedScenario({ turns: 2000, seed: 11, agentId: 'worker-1', taskId: 'task-auth', t0: T0 - 3_600_000 * 24 });
  let n = 0;
  while (n < poolSize) {
    for (const turn of turns) {
      for (const it of turn.items) {
        if (n >= poolSize) break;
        engine.addItem({ ...it, id: `${it.id}#${n}`, content: n < turns.length ? it.content : `${it.content}\n(copy ${n})` });
        n++;
      }
      if (n >= poolSize) break;
    }
  }
  clock.set(T0);
  const request = { phase: 'implement', files: ['src/auth/rotateToken.ts', 'src/session/verifySession.ts'], symbols: ['rotateToken'], keywords: ['refresh', 'rotation'] };
  engine.build('worker-1', request);
  // Warm up: every item's rendered token count is cached after the first fresh builds.
  for (let i = 0; i < 3; i++) engine.rebuild('worker-1', 'bench warm-up');
  const iterations = poolSize >= 100_000 ? 15 : poolSize >= 10_000 ? 40 : 200;
  const misses = engine.tokens.stats.misses;
  const times: number[] = [];
  let last;
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    last = engine.rebuild('worker-1', 'bench');
    times.push(performance.now() - t);
  }
  const used = heap() - base;
  return {
    pool: poolSize,
    budget,
    iterations,
    p50Ms: Number(percentile(times, 50).toFixed(2)),
    p95Ms: Number(percentile(times, 95).toFixed(2)),
    included: last?.generation.included.length ?? 0,
    promptTokens: last ? generationTokens(last.generation) : 0,
    heapMiB: Number((used / 1024 / 1024).toFixed(1)),
    heapBytesPerItem: Math.round(used / poolSize),
    tokenizerMissesDuringTimedBuilds: engine.tokens.stats.misses - misses,
  };
}

const rows = [1_000, 10_000, 100_000].map((size) => bench(size, 32_000));
console.log(`Engine build latency (fresh pack over the whole pool, warm token cache), Node ${process.version}${gc ? '' : ' (no --expose-gc: heap figures are rough)'}`);
console.table(rows);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'engine.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2));
console.log(`wrote ${out}`);
