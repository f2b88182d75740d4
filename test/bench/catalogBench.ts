// Catalog and recall figures: 10,000 pool-item inserts in one transaction, recall latency with
// 10,000 memory rows (1,000 verified) read through the store, and catalog open time (Catalog.open
// + MemoryStore.open) over 100,000 items. Prints a table next to the targets and writes
// test/bench/results/catalog.json. Not a test: it asserts nothing and never fails on timing.
// Run with `npm run bench:catalog`.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalog } from '../../engine/node/catalog/Catalog';
import type { ContextItem } from '../../engine/items/ContextItem';
import { createItem } from '../../engine/items/createItem';
import type { MemoryProposal } from '../../engine/memory/MemoryRecord';
import { partitionId } from '../../engine/memory/partitionId';
import { recallScoped } from '../../engine/memory/recall/recallScoped';
import { MemoryStore } from '../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../engine/ports/Clock';
import { T0 } from '../support/engineFixtures';
import { longLivedScenario, seeded } from '../support/longLivedScenario';
import { DAY, hashIn, viewOf } from '../support/memoryFixtures';
import { tempDir } from '../support/tempDir';

const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const ms = (x: number) => Number(x.toFixed(2));
const MiB = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
const fileBytes = (path: string) => ['', '-wal'].reduce((n, s) => n + (statSync(path + s, { throwIfNoEntry: false })?.size ?? 0), 0);

/** `count` pool items of realistic sizes (the long-lived scenario's material, fresh ids). */
function poolItems(count: number): ContextItem[] {
  const turns = longLivedScenario({ turns: 2000, seed: 11, agentId: 'worker-1', taskId: 'task-auth', t0: T0 - 30 * DAY });
  const inputs = turns.flatMap((t) => t.items);
  return Array.from({ length: count }, (_, n) => {
    const it = inputs[n % inputs.length] as (typeof inputs)[number];
    return createItem({ ...it, id: `${it.id}#${n}`, content: n < inputs.length ? it.content : `${it.content}\n(copy ${n})` });
  });
}

const tmp = tempDir('strata-catalog-bench-');
const rows: { measure: string; result: number; unit: string; target: string; meets: boolean; detail: string }[] = [];

try {
  // ---- 1. 10,000 item inserts in one transaction ---------------------------------------------
  {
    const items = poolItems(10_000);
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const catalog = Catalog.open(join(tmp.dir, `inserts-${run}.sqlite`));
      const t = performance.now();
      catalog.transaction(() => items.forEach((item, i) => catalog.putItem(item, i)));
      times.push(performance.now() - t);
      catalog.close();
    }
    const bytes = items.reduce((n, i) => n + i.content.length, 0);
    rows.push({
      measure: '10,000 putItem in one transaction',
      result: ms(percentile(times, 50)),
      unit: 'ms (median of 3)',
      target: '< 1000 ms',
      meets: percentile(times, 50) < 1000,
      detail: `runs ${times.map((x) => x.toFixed(0)).join(' / ')} ms; ${MiB(bytes)} MiB of content`,
    });
  }

  // ---- 2. recall latency with 10,000 memory rows, 1,000 verified ------------------------------
  {
    const clock = manualClock(T0);
    const catalog = Catalog.open(join(tmp.dir, 'recall.sqlite'));
    const store = MemoryStore.open(catalog, { partition: partitionId('bench'), clock });
    const rnd = seeded(7);
    const MODULES = ['auth', 'billing', 'session', 'tokens', 'users', 'audit', 'mailer', 'routes', 'db', 'config'];
    const WORDS = ['refresh', 'token', 'rotation', 'family', 'invoice', 'session', 'cache', 'retry', 'migration', 'schema', 'queue', 'index'];
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
    const paths = MODULES.flatMap((m) => ['store', 'verify', 'issue', 'index'].map((f) => `src/${m}/${f}.ts`));
    const proposal = (k: number): MemoryProposal => {
      const ps = [pick(paths), pick(paths)].filter((p, i, a) => a.indexOf(p) === i);
      return {
        kind: pick(['finding', 'convention', 'build_command', 'decision', 'constraint'] as const),
        title: `${pick(WORDS)} ${pick(WORDS)} in ${ps[0]} (${k})`,
        body: Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => `The ${pick(WORDS)} ${pick(WORDS)} path checks ${pick(WORDS)} before ${pick(WORDS)}.`).join('\n'),
        evidence: {
          paths: ps,
          commands: rnd() < 0.5 ? [{ command: 'npm test', ranAt: T0 - Math.floor(rnd() * 20) * DAY, result: 'exit 0' }] : [],
          hashes: Object.fromEntries(ps.map((p) => [p, hashIn(p)])),
          commit: rnd() < 0.5 ? 'c0ffee' : null,
        },
        provenance: { source: 'worker_finding', agentId: `worker-${k % 7}`, taskId: `task-${k % 31}`, itemId: null, observedAt: T0 - Math.floor(rnd() * 20) * DAY, confidence: 0.5 + rnd() / 2 },
      };
    };
    const ids: string[] = [];
    catalog.transaction(() => {
      for (let k = 0; k < 10_000; k++) {
        clock.set(T0 + k);
        ids.push(store.propose(proposal(k), `bench:${k}`).id);
      }
    });
    catalog.transaction(() => {
      for (let k = 0; k < 10_000; k += 10) store.verify(ids[k] as string, 1);
    });
    const view = viewOf({ paths });
    const query = { task: 'Implement refresh token rotation in src/auth/issue.ts', files: ['src/auth/issue.ts'], view, now: T0 + DAY };
    const recall = () => recallScoped(store.list(['verified']), query);
    for (let i = 0; i < 10; i++) recall();
    const times: number[] = [];
    const readTimes: number[] = [];
    const rankTimes: number[] = [];
    let last = recall();
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      last = recall();
      times.push(performance.now() - t);
      // The two halves on their own: the SQL read (with JSON parse), then the selection.
      const r = performance.now();
      const records = store.list(['verified']);
      readTimes.push(performance.now() - r);
      const s = performance.now();
      recallScoped(records, query);
      rankTimes.push(performance.now() - s);
    }
    const verified = store.list(['verified']).length;
    const all = store.list().length;
    const detail = `${all} rows, ${verified} verified; recalled ${last.recalled.length}; p95 ${ms(percentile(times, 95))} ms; store.list(['verified']) alone p50 ${ms(percentile(readTimes, 50))} ms, recallScoped alone p50 ${ms(percentile(rankTimes, 50))} ms`;
    rows.push({ measure: 'recall p50 (list verified + recallScoped)', result: ms(percentile(times, 50)), unit: 'ms (200 iterations)', target: '< 2 ms', meets: percentile(times, 50) < 2, detail });
    rows.push({ measure: 'recall p95', result: ms(percentile(times, 95)), unit: 'ms (200 iterations)', target: '(none)', meets: true, detail: '' });
    catalog.close();
  }

  // ---- 3. open time with 100,000 items ---------------------------------------------------------
  {
    const path = join(tmp.dir, 'open.sqlite');
    const build = Catalog.open(path);
    MemoryStore.open(build, { partition: partitionId('bench'), clock: manualClock(T0) });
    for (let batch = 0; batch < 10; batch++) {
      const items = poolItems(10_000).map((i) => ({ ...i, id: `${i.id}@${batch}` }));
      build.transaction(() => items.forEach((item, k) => build.putItem(item, batch * 10_000 + k)));
    }
    const count = build.countItems();
    build.close();
    const catalogOnly: number[] = [];
    const withMemory: number[] = [];
    for (let run = 0; run < 5; run++) {
      let t = performance.now();
      const c = Catalog.open(path);
      catalogOnly.push(performance.now() - t);
      c.close();
      t = performance.now();
      const d = Catalog.open(path);
      MemoryStore.open(d, { partition: partitionId('bench'), clock: manualClock(T0) });
      withMemory.push(performance.now() - t);
      d.close();
    }
    rows.push({
      measure: 'open: Catalog.open + MemoryStore.open',
      result: ms(percentile(withMemory, 50)),
      unit: 'ms (p50 of 5)',
      target: '< 500 ms',
      meets: percentile(withMemory, 50) < 500,
      detail: `${count} items, ${MiB(fileBytes(path))} MiB on disk; runs ${withMemory.map((x) => x.toFixed(0)).join(' / ')} ms`,
    });
    rows.push({
      measure: 'open: Catalog.open alone',
      result: ms(percentile(catalogOnly, 50)),
      unit: 'ms (p50 of 5)',
      target: '(part of the above)',
      meets: true,
      detail: `runs ${catalogOnly.map((x) => x.toFixed(1)).join(' / ')} ms`,
    });
  }
} finally {
  tmp.remove();
}

console.log(`Catalog benchmark, Node ${process.version}, better-sqlite3, WAL, secure_delete on`);
console.table(rows.map((r) => ({ measure: r.measure, result: r.result, unit: r.unit, target: r.target, meets: r.target.startsWith('<') ? (r.meets ? 'yes' : 'NO') : '' })));
for (const r of rows) if (r.detail) console.log(`  ${r.measure}: ${r.detail}`);
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'catalog.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), node: process.version, rows }, null, 2));
console.log(`wrote ${out}`);
