#!/usr/bin/env node
// The concurrent-run check (issue 21, item 10): the unit and integration suites must pass while a
// second copy of them runs on the same machine. Starts N copies of `vitest run` at the same moment,
// each with a temp folder of its own (TMPDIR, TMP, TEMP: every mkdtemp, catalog, workspace and the
// tsx cache of its child processes), waits for all of them and reports each copy's wall time,
// counts and failures. Exit 0 only when every copy passed.
//
//   node test/support/concurrentRun.mjs [--copies 2] [--keep] [-- <vitest arguments>]
//   npm run test:concurrent
//
// Heavy by design (two full suites on the same cores): run it on purpose, not inside `npm test`.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** `--copies n`, `--keep` and what follows `--` (passed to every copy). */
export function parseArgs(argv) {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const vitestArgs = dash < 0 ? [] : argv.slice(dash + 1);
  let copies = 2;
  let keep = false;
  for (let i = 0; i < own.length; i++) {
    if (own[i] === '--copies') {
      copies = Number(own[++i]);
      if (!Number.isInteger(copies) || copies < 2 || copies > 8) throw new Error('--copies takes a whole number from 2 to 8');
    } else if (own[i] === '--keep') keep = true;
    else throw new Error(`unknown option ${own[i]} (options: --copies n, --keep, -- <vitest arguments>)`);
  }
  return { copies, keep, vitestArgs };
}

/** Counts and failed tests of one vitest JSON report. */
export function summarize(report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const name = relativeName(file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`${name} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`);
    }
    // A file that failed to load has no test results of its own, only its message.
    if (file.status === 'failed' && (file.assertionResults ?? []).every((t) => t.status !== 'failed')) failures.push(`${name}: ${firstLine(file.message)}`);
  }
  return { files: (report.testResults ?? []).length, total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0), failures };
}

const relativeName = (path) => (path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path);
const firstLine = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '';

function runCopy(index, vitestArgs) {
  const dir = mkdtempSync(join(tmpdir(), `strata-concurrent-${index}-`));
  const report = join(dir, 'report.json');
  const log = join(dir, 'vitest.log');
  const out = createWriteStream(log);
  const started = Date.now();
  const child = spawn(process.execPath, [VITEST, 'run', '--reporter=json', `--outputFile=${report}`, ...vitestArgs], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: dir, TMP: dir, TEMP: dir, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  return new Promise((resolvePromise) => {
    child.on('close', (code, signal) => {
      out.end();
      resolvePromise({ index, dir, log, report, code, signal, seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function main() {
  const { copies, keep, vitestArgs } = parseArgs(process.argv.slice(2));
  if (!existsSync(VITEST)) throw new Error(`vitest is not installed at ${VITEST}`);
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`concurrent run: ${copies} copies of vitest run on ${availableParallelism()} cores (load average ${load()})${vitestArgs.length ? `, arguments: ${vitestArgs.join(' ')}` : ''}`);
  const started = Date.now();
  const runs = await Promise.all(Array.from({ length: copies }, (_, i) => runCopy(i + 1, vitestArgs)));
  let ok = true;
  for (const r of runs) {
    const summary = existsSync(r.report) ? summarize(JSON.parse(readFileSync(r.report, 'utf8'))) : undefined;
    const passed = r.code === 0 && summary !== undefined && summary.failed === 0;
    ok &&= passed;
    const counts = summary ? `${summary.files} files, ${summary.total} tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped` : 'no report written';
    console.log(`copy ${r.index}: ${passed ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(1)} s (exit ${r.code ?? r.signal}); ${counts}`);
    for (const f of summary?.failures ?? []) console.log(`  failed: ${f}`);
    if (!passed) console.log(`  log: ${r.log}`);
  }
  console.log(`all copies done in ${((Date.now() - started) / 1000).toFixed(1)} s (load average ${load()}): ${ok ? 'every copy passed' : 'a copy failed'}`);
  for (const r of runs) if (ok && !keep) rmSync(r.dir, { recursive: true, force: true });
  if (!ok || keep) console.log(`temp folders kept: ${runs.map((r) => r.dir).join(', ')}`);
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`concurrentRun: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  });
}
