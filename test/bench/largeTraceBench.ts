// Large sessions and traces against the host (issue 20, items 10 and 18). Three measurements, each
// printing figures and writing test/bench/results/large-trace.json; not a test, it asserts nothing:
//  1. live: a Claude Code session of --mib MiB (default 60, made of a real session's lines with
//     fresh ids) attached to an in-process host while lines are appended every 250 ms for
//     --seconds s: the latency of `health` (called every 100 ms) and the process RSS, then the RSS
//     after detaching;
//  2. live, one line of --line-mib MiB (default 320) appended to an attached session: the longest
//     stall of the event loop while it is read, and the RSS after detaching;
//  3. import: `importTrace` of a session with one --import-line-mib MiB line (default 200): the
//     longest event-loop stall during the import and how long it took.
// Run with `node --expose-gc --import tsx test/bench/largeTraceBench.ts [-- --mib 60 --seconds 20]`.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Host } from '../../engine/host';
import { quarterTokenizer } from '../support/engineFixtures';
import { tempDir } from '../support/tempDir';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MIB = arg('mib', 60);
const SECONDS = arg('seconds', 20);
const LINE_MIB = arg('line-mib', 320);
const IMPORT_LINE_MIB = arg('import-line-mib', 200);
const here = dirname(fileURLToPath(import.meta.url));
const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(here, '../../../shared/traces');
const source = readFileSync(join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl'), 'utf8').split('\n').filter(Boolean);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rssMiB = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const heapMiB = () => Math.round(process.memoryUsage().heapUsed / 2 ** 20);
const q = (xs: number[], p: number) => Number(([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN).toFixed(1));

/** The source's lines with every id made unique for copy `k`, so repeated copies stay distinct calls. */
const copyOf = (k: number) => source.map((l) => l.replace(/"(uuid|parentUuid|id|tool_use_id|requestId)":"([^"]+)"/g, (_m, key: string, v: string) => `"${key}":"${v}-${k}"`));

/** Appends a user line of `mib` MiB of text to `file` a MiB at a time (the bench never holds the line itself). */
function appendHugeLine(file: string, mib: number, uuid: string): void {
  appendFileSync(file, `{"type":"user","uuid":"${uuid}","sessionId":"s","message":{"role":"user","content":"`);
  const slice = Buffer.alloc(2 ** 20, 'x');
  for (let i = 0; i < mib; i++) appendFileSync(file, slice);
  appendFileSync(file, '"}}\n');
}

/** The longest gap between 10 ms ticks while `run` runs: how long the event loop was held. */
async function longestStall<T>(run: () => Promise<T>): Promise<{ value: T; stallMs: number; ms: number }> {
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  try {
    const value = await run();
    // A block that lasted to the end never let the ticker see it: count the gap up to now too.
    stall = Math.max(stall, performance.now() - last - 10);
    return { value, stallMs: Number(stall.toFixed(1)), ms: Number((performance.now() - t0).toFixed(0)) };
  } finally {
    clearInterval(tick);
  }
}

const tmp = tempDir('strata-large-bench-');
const host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'bench', version: '1', tokenizer: quarterTokenizer, sessionRoots: {} });
const conn = host.connect(() => {});
const result: Record<string, unknown> = {};

// 1. A large live session growing every 250 ms.
{
  const file = join(tmp.dir, 'large.jsonl');
  writeFileSync(file, '');
  let k = 0;
  while (Buffer.byteLength(readFileSync(file)) < MIB * 2 ** 20) appendFileSync(file, `${copyOf(k++).join('\n')}\n`);
  gc();
  const rssBefore = rssMiB();
  const attached = await conn.call('attachSession', { path: file, budget: 100_000 });
  if (!attached.ok) throw new Error(attached.error.message);
  const sessionId = (attached.value as { session: { sessionId: string } }).session.sessionId;
  const latencies: number[] = [];
  const rss: number[] = [];
  const extra = copyOf(k);
  let i = 0;
  const end = performance.now() + SECONDS * 1000;
  const appender = setInterval(() => appendFileSync(file, `${extra[i++ % extra.length]}\n`), 250);
  const sampler = setInterval(() => rss.push(rssMiB()), 1000);
  // A request is due every 100 ms; its latency counts from when it was due, so time the event loop
  // was held (the request would have waited in the socket) is counted, as a remote caller sees it.
  let stall = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  for (let due = performance.now(); due < end; due += 100) {
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    await conn.call('health', {});
    latencies.push(performance.now() - due);
  }
  clearInterval(ticker);
  stall = Math.max(stall, performance.now() - last - 10);
  clearInterval(appender);
  clearInterval(sampler);
  await conn.call('detachSession', { sessionId });
  await new Promise((r) => setTimeout(r, 500));
  gc();
  result['live'] = { mib: MIB, seconds: SECONDS, healthMs: { p50: q(latencies, 0.5), p95: q(latencies, 0.95), max: q(latencies, 1) }, longestStallMs: Number(stall.toFixed(1)), rssMiB: { before: rssBefore, max: Math.max(...rss), afterDetach: rssMiB() }, heapMiBAfterDetach: heapMiB() };
  console.log(`1. live ${MIB} MiB session, a line every 250 ms for ${SECONDS} s: health p50 ${q(latencies, 0.5)} ms, p95 ${q(latencies, 0.95)} ms, max ${q(latencies, 1)} ms, longest event-loop stall ${stall.toFixed(1)} ms; RSS ${rssBefore} -> max ${Math.max(...rss)} MiB, ${rssMiB()} MiB after detach (heap ${heapMiB()} MiB)`);
}

// 2. One huge line appended to an attached session.
{
  const file = join(tmp.dir, 'huge-line.jsonl');
  writeFileSync(file, `${source.slice(0, 50).join('\n')}\n`);
  const attached = await conn.call('attachSession', { path: file, budget: 100_000 });
  if (!attached.ok) throw new Error(attached.error.message);
  const sessionId = (attached.value as { session: { sessionId: string } }).session.sessionId;
  await host.liveSessions.idle();
  const rssBefore = rssMiB();
  let lines = 0;
  let message = '';
  // Written before the clock starts: the bench's own write is not the host's stall.
  appendHugeLine(file, LINE_MIB, 'huge');
  appendFileSync(file, `${source[50]}\n`);
  const { stallMs, ms } = await longestStall(async () => {
    const deadline = performance.now() + 120_000;
    while (performance.now() < deadline) {
      const list = await conn.call('listAttached', {});
      const s = list.ok ? (list.value as { sessions: { lines: number; message: string }[] }).sessions[0] : undefined;
      lines = s?.lines ?? 0;
      message = s?.message ?? '';
      if (lines >= 52) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  const rssRead = rssMiB();
  await conn.call('detachSession', { sessionId });
  await new Promise((r) => setTimeout(r, 500));
  gc();
  result['hugeLine'] = { lineMiB: LINE_MIB, linesSeen: lines, readMs: ms, longestStallMs: stallMs, rssMiB: { before: rssBefore, afterRead: rssRead, afterDetach: rssMiB() }, heapMiBAfterDetach: heapMiB(), message };
  console.log(`2. one ${LINE_MIB} MiB line appended: seen after ${ms} ms (lines ${lines}), longest event-loop stall ${stallMs} ms; RSS ${rssBefore} -> ${rssRead} MiB, ${rssMiB()} MiB after detach (heap ${heapMiB()} MiB)`);
  console.log(`   status: ${message}`);
}

// 3. Importing a session with one huge line.
{
  const file = join(tmp.dir, 'import-huge-line.jsonl');
  writeFileSync(file, `${source.slice(0, 60).join('\n')}\n`);
  appendHugeLine(file, IMPORT_LINE_MIB, 'huge');
  appendFileSync(file, `${source.slice(60, 120).join('\n')}\n`);
  const { value, stallMs, ms } = await longestStall(() => conn.call('importTrace', { path: file }));
  const outcome = value.ok ? { steps: (value.value as { trace: { steps: number } }).trace.steps, skippedLines: (value.value as { skippedLines?: unknown }).skippedLines ?? null } : { error: value.error.message };
  result['import'] = { lineMiB: IMPORT_LINE_MIB, ms, longestStallMs: stallMs, ...outcome };
  console.log(`3. importTrace with one ${IMPORT_LINE_MIB} MiB line: ${ms} ms, longest event-loop stall ${stallMs} ms; ${JSON.stringify(outcome)}`);
}

host.close();
tmp.remove();
const out = join(here, 'results', 'large-trace.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
