// Live attach lag: a real Codex session re-written line by line at 20 lines a second into a temp
// file while the host follows it (`attachSession`). Measures, per appended line, the time from the
// append to the first `session.updated` whose line count includes it (the host side of the
// append-to-view lag; the view adds its own frame), and how far the counterfactual replay trails.
// Prints p50/p95/max against the target (p95 < 500 ms to the view) and writes
// test/bench/results/live.json. Not a test: it asserts nothing and never fails on timing.
// Run with `npm run bench:live` (`-- --lines 300 --rate 20`).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StrataEvent } from '../../engine/contract';
import { Host } from '../../engine/host';
import { createTiktokenTokenizer } from '../../engine/tokens/tiktokenTokenizer';
import { tempDir } from '../support/tempDir';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const LINES = arg('lines', 400);
const RATE = arg('rate', 20);
const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/traces');
const source = join(tracesDir, 'codex-rollout-jsonl', 'eaglepointAiLabs__TASK-w1t9__sessions__session-1.jsonl');
const lines = readFileSync(source, 'utf8').split('\n').filter(Boolean).slice(0, LINES);

const tmp = tempDir('strata-live-bench-');
const file = join(tmp.dir, 'rollout-bench.jsonl');
writeFileSync(file, '');
const host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'bench', version: '1', tokenizer: createTiktokenTokenizer(), sessionRoots: {} });
const appendedAt: number[] = [];
const lag: number[] = [];
let seen = 0;
const shadowTrail: number[] = [];
const conn = host.connect((e: StrataEvent) => {
  if (e.name !== 'session.updated') return;
  const now = performance.now();
  const s = e.payload.session;
  for (; seen < s.lines && seen < appendedAt.length; seen++) lag.push(now - appendedAt[seen]!);
  if (s.shadow) shadowTrail.push(s.events - s.shadow.replayedEvents);
});
await conn.call('subscribe', { events: ['session.updated'] });
const attached = await conn.call('attachSession', { path: file, budget: 100_000 });
if (!attached.ok) throw new Error(attached.error.message);

const t0 = performance.now();
for (let i = 0; i < lines.length; i++) {
  const due = t0 + (i * 1000) / RATE;
  await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  appendFileSync(file, `${lines[i]}\n`);
  appendedAt.push(performance.now());
}
const deadline = performance.now() + 30_000;
while (seen < lines.length && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
await host.liveSessions.idle();

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN).toFixed(1));
};
const result = {
  lines: lines.length,
  rate: RATE,
  seen: lag.length,
  lagMs: { p50: q(lag, 0.5), p95: q(lag, 0.95), max: q(lag, 1) },
  shadowTrailEvents: { p50: q(shadowTrail, 0.5), p95: q(shadowTrail, 0.95), max: q(shadowTrail, 1) },
};
console.log(`live attach: ${result.lines} lines of a real Codex session at ${RATE} lines/s`);
console.log(`  append -> session.updated: p50 ${result.lagMs.p50} ms, p95 ${result.lagMs.p95} ms, max ${result.lagMs.max} ms (${result.seen} lines seen; target to the view: p95 < 500 ms)`);
console.log(`  counterfactual replay trails by p50 ${result.shadowTrailEvents.p50}, p95 ${result.shadowTrailEvents.p95} events`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'live.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
host.close();
tmp.remove();
