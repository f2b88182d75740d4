// The comparison benchmark: every shared trace (read in place from ../shared/traces, never copied)
// under every engine strategy, the two baselines (no-limit full history, the agent as recorded) and
// every peer library, at budgets 32k and
// 100k; the provider cache model prices every call. Engine and peer jobs share one pool of 2 worker
// threads (compare/compareWorker.ts: a trace's jobs stay on one worker, the largest trace first).
// Prints one table per budget and the issue's targets with what was measured; writes
// bench/results/compare.json and compare.md; progress on stderr. Not a test: it asserts nothing.
// A request a provider would refuse is counted in the `invalid` column and priced as nothing sent;
// the targets list each peer's invalid requests with their reasons.
// Run with `npm run bench:compare` (`-- <files or folders>` to pick traces, `-- --no-peers` to
// leave the peers out, `-- --mastra-own-encoder` to add Mastra's limiter counting with its own
// encoder: off by default, since it is not our tokenizer and costs more than all the rest;
// `-- --ttl 5m` or `-- --ttl 1h` to force every breakpoint's cache lifetime instead of the one each
// recording used; `-- --window 200000` to hold every request against that context window instead of
// the one each recording states, else its model's documented one). Dollars are list prices
// (engine/pricing/listPrices.ts, with sources and dates); windows engine/models/contextWindows.ts.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPARISON_WINDOW } from '../../engine/contract';
import type { CacheProvider, CacheTtl } from '../../engine/providers/cacheModel';
import { strategies } from '../../engine/strategies/strategies';
import type { StrategyName } from '../../engine/strategies/Strategy';
import { compareRows, formatCompareTable, RECALL_NOTE, usd, type CompareRow } from '../../engine/traces/compare/compareTable';
import { formatRecordedTable, RECORDED_NOTE } from '../../engine/traces/compare/recordedTable';
import { compareJobs, notesOf, recordedOf, traceFiles } from '../../engine/node/traces/runCompare';
import { importTraceFile } from '../../engine/node/traces/importTraceFile';
import { failedJobs, jobName, runCompareJobs, withPeerJobs } from './compare/compareWorker';
import { benchPeerAdapters, mastraTokenLimiterOwnEncoder } from './compare/peers';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const ttlArg = args.indexOf('--ttl');
const ttlValue = ttlArg >= 0 ? args[ttlArg + 1] : undefined;
if (ttlValue !== undefined && ttlValue !== '5m' && ttlValue !== '1h') {
  console.error(`bench:compare: --ttl is 5m or 1h (got "${ttlValue}")`);
  process.exit(2);
}
const ttl: CacheTtl | undefined = ttlValue;
const windowArg = args.indexOf('--window');
const windowValue = windowArg >= 0 ? args[windowArg + 1] : undefined;
if (windowArg >= 0 && !(windowValue !== undefined && /^\d+$/.test(windowValue) && Number(windowValue) >= COMPARISON_WINDOW.min && Number(windowValue) <= COMPARISON_WINDOW.max)) {
  console.error(`bench:compare: --window takes one whole token count from ${COMPARISON_WINDOW.min} to ${COMPARISON_WINDOW.max} (got "${windowValue ?? ''}")`);
  process.exit(2);
}
const window = windowValue === undefined ? undefined : Number(windowValue);
const paths = args.filter((a, i) => !a.startsWith('--') && !(ttlArg >= 0 && i === ttlArg + 1) && !(windowArg >= 0 && i === windowArg + 1));
const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(root, '../shared/traces');
if (paths.length === 0 && !existsSync(tracesDir)) {
  console.log(`bench:compare: no traces (${tracesDir} does not exist; pass files or set STRATA_TRACES_DIR)`);
  process.exit(0);
}
const files = traceFiles(paths.length ? paths : [join(tracesDir, 'openai-messages-json'), join(tracesDir, 'claude-code-jsonl'), join(tracesDir, 'codex-rollout-jsonl'), join(tracesDir, 'mini-swe-agent-traj-json'), join(tracesDir, 'swe-agent-traj')].filter(existsSync));
const BUDGETS = [32_000, 100_000];
const WORKERS = 2;
const provider: CacheProvider = 'anthropic';
const engineStrategies = Object.keys(strategies) as StrategyName[];
const peers = args.includes('--no-peers') ? [] : [...benchPeerAdapters, ...(args.includes('--mastra-own-encoder') ? [mastraTokenLimiterOwnEncoder] : [])];
const pricing = ttl ? { ttl } : {};
const engineJobs = compareJobs({ files, strategies: [...engineStrategies, 'full_history_baseline', 'as_recorded'], budgets: BUDGETS, provider, ...pricing, ...(window !== undefined ? { window } : {}) });
// Trace by trace: the engine's jobs first (in runCompare's order, so `variable` counts its trace cold), then the peers'.
const jobs = withPeerJobs(engineJobs, peers, BUDGETS, provider, pricing);

const t0 = performance.now();
process.stderr.write(`bench:compare: ${files.length} traces × (${engineStrategies.length} strategies × ${BUDGETS.length} budgets + baseline${peers.length ? ` + ${peers.length} peers × ${BUDGETS.length} budgets` : ''}) = ${jobs.length} jobs on ${WORKERS} workers\n`);
const done = await runCompareJobs(jobs, {
  workers: WORKERS,
  onResult: ({ job }, n, total) => process.stderr.write(`\r  [${n}/${total}] ${jobName(job)} @ ${job.budget} ${basename(job.trace)}`.slice(0, 110).padEnd(110)),
});
const seconds = (performance.now() - t0) / 1000;
process.stderr.write('\n');
const all = done.flatMap((d) => (d.result ? [d.result] : []));
const errors = failedJobs(done);
for (const e of errors) process.stderr.write(`  failed: ${e.strategy} @ ${e.budget} ${basename(e.trace)}: ${e.error}\n`);
const rows = compareRows(all);
for (const budget of BUDGETS) {
  console.log(`\nbudget ${budget.toLocaleString('en-US')} tokens (baseline: no truncation)`);
  console.log(formatCompareTable(rows.filter((r) => r.budget === budget || (r.budget === null && budget === BUDGETS[0]))));
}
console.log(`\n${RECALL_NOTE}`);
// What the dollars and the cache TTLs rest on.
const notes = notesOf(done);
console.log(`\n${notes.join('\n')}`);

// Recorded truth: what the recording agents were billed, and the cache model on the baseline.
const recorded = recordedOf(done);
if (recorded.length > 0) console.log(`\n${formatRecordedTable(recorded)}\n${RECORDED_NOTE}`);

// The issue's targets, measured.
const lines: string[] = [];
// Every recorded call is a replayed step (the agent as recorded has one step per recorded step of any agent).
const traceName = (f: string) => basename(f);
const withUsage = all.filter((r) => r.strategy === 'as_recorded' && r.recorded);
const stepMismatch = withUsage.filter((r) => r.totals.steps !== r.recorded!.callsWithUsage);
// No call is split or merged: every usage event the importer emitted is the usage of one step of its own.
const usageEvents = new Map(withUsage.map((r) => [traceOf(r), importTraceFile(traceOf(r)).events.filter((e) => e.type === 'usage').length]));
const splitOrMerged = withUsage.filter((r) => usageEvents.get(traceOf(r)) !== r.recorded!.callsWithUsage);
lines.push(
  `step count = recorded calls on ${withUsage.length - stepMismatch.length} of ${withUsage.length} traces that record calls; every recorded usage is one step of its own on ${withUsage.length - splitOrMerged.length} of ${withUsage.length}${stepMismatch.length ? `; steps without a recorded usage (model output the recording kept, its usage not): ${stepMismatch.map((r) => `${traceName(traceOf(r))} ${r.totals.steps - r.recorded!.callsWithUsage} of ${r.totals.steps}`).join(', ')}` : ''}`,
);
// The agent as recorded against what its provider billed, per trace.
const perTrace = recorded.filter((r) => r.trace !== 'all traces' && r.asRecorded?.promptError !== null && r.asRecorded?.promptError !== undefined);
const within = perTrace.filter((r) => Math.abs(r.asRecorded!.promptError!) <= 0.05);
const allRow = recorded.find((r) => r.trace === 'all traces');
lines.push(
  `as-recorded baseline within 5% of billed prompt tokens on ${within.length} of ${perTrace.length} traces with usage (aggregate ${signed(allRow?.asRecorded?.promptError ?? null)}; full history ${signed(allRow?.fullHistory?.promptError ?? null)})${perTrace.length > within.length ? `; missed on ${perTrace.filter((r) => !within.includes(r)).map((r) => `${r.trace} ${signed(r.asRecorded!.promptError)}`).join(', ')}` : ''}`,
);
const asRecordedRow = rows.find((r) => r.name === 'as_recorded');
// Dollars on the same traces: those whose recorded model has a list price.
const billed = withUsage.filter((r) => r.recorded!.costUsd && r.totals.costUsd);
if (billed.length > 0) {
  const sumBilled = billed.reduce((n, r) => n + r.recorded!.costUsd!.total, 0);
  const sumModel = billed.reduce((n, r) => n + r.totals.costUsd!.total, 0);
  lines.push(`the agent as recorded, priced by the cache model, costs ${usd(sumModel)} where its provider billed ${usd(sumBilled)} (${signed(sumModel / sumBilled - 1)}), over the ${billed.length} traces whose recorded model has a list price`);
}
const long = all.filter((r) => r.strategy === 'variable' && r.totals.steps > 50);
for (const budget of BUDGETS) {
  const at = long.filter((r) => r.budget === budget);
  const met = at.filter((r) => r.totals.prefixReuse >= 0.95);
  lines.push(`variable @ ${budget}: prefix reuse >= 95% on ${met.length} of ${at.length} traces longer than 50 steps (lowest ${(Math.min(...at.map((r) => r.totals.prefixReuse)) * 100).toFixed(1)}%); orphaned tool results ${at.reduce((n, r) => n + r.totals.orphanedToolResults, 0)}`);
  // Where the misses lose their reuse (reuseBreak.ts): the new material each step appends can never
  // be a prefix, so a trace whose appends alone cost 5% or more cannot reach 95% at this prompt size;
  // the rest is lost where a generation boundary re-packed L2 (or changed L0/L1).
  const missed = at.filter((r) => r.totals.prefixReuse < 0.95).map((r) => {
    const bytes = r.steps.slice(1).reduce((n, m) => n + m.promptBytes, 0) || 1;
    const append = r.totals.lostBytes.append / bytes;
    return { append, boundary: (r.totals.lostBytes.L2 + r.totals.lostBytes.L1 + r.totals.lostBytes.L0) / bytes };
  });
  if (missed.length > 0) {
    const pts = (xs: number[]) => `${(Math.min(...xs) * 100).toFixed(1)}–${(Math.max(...xs) * 100).toFixed(1)} points`;
    lines.push(
      `variable @ ${budget}: of the ${missed.length} misses, new material alone costs >= 5 points on ${missed.filter((m) => m.append >= 0.05).length} (95% unreachable while every step's new messages are sent); appends cost ${pts(missed.map((m) => m.append))}, generation boundaries (L2 re-packs, L0/L1 changes) ${pts(missed.map((m) => m.boundary))}`,
    );
  }
  const v = rows.find((r) => r.name === 'variable' && r.budget === budget);
  // Money at list prices, variable against sending the whole history (the plain baseline and the engine's full_history).
  const baseline = rows.find((r) => r.name === 'full_history_baseline');
  const full = rows.find((r) => r.name === 'full_history' && r.budget === budget);
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? ` (${(a / b).toFixed(2)}x)` : '');
  if (v && baseline) lines.push(`variable @ ${budget} vs full-history baseline: prompt ${usd(v.promptUsd)} vs ${usd(baseline.promptUsd)}${ratio(v.promptUsd, baseline.promptUsd)}, total ${usd(v.totalUsd)} vs ${usd(baseline.totalUsd)} over ${v.pricedTraces} priced traces; cache TTL ${v.ttl}`);
  if (v && asRecordedRow) lines.push(`variable @ ${budget} vs the agent as recorded: prompt ${usd(v.promptUsd)} vs ${usd(asRecordedRow.promptUsd)}${ratio(v.promptUsd, asRecordedRow.promptUsd)}, total ${usd(v.totalUsd)} vs ${usd(asRecordedRow.totalUsd)}`);
  if (v && full) lines.push(`variable @ ${budget} vs full_history @ ${budget}: prompt ${usd(v.promptUsd)} vs ${usd(full.promptUsd)}${ratio(v.promptUsd, full.promptUsd)}`);
  const peerRows = rows.filter((r) => r.budget === budget && peers.some((p) => p.name === r.name) && r.name !== 'fullHistory');
  const best = peerRows.sort((a, b) => a.uncachedTokens - b.uncachedTokens)[0];
  if (v && best) lines.push(`variable @ ${budget} vs best peer (${best.name}, ${best.invalid} invalid requests): ${(best.uncachedTokens / Math.max(1, v.uncachedTokens)).toFixed(2)}x fewer uncached prompt tokens (target 3x); recall ${recall(v)} vs ${recall(best)}`);
  // A peer whose requests a provider would refuse is partly cheap by failing (nothing sent is priced at 0): the same against the peers with none.
  const bestValid = peerRows.filter((r) => r.invalid === 0)[0];
  if (v && best) lines.push(`variable @ ${budget} vs best peer without invalid requests: ${bestValid ? `${bestValid.name}, ${(bestValid.uncachedTokens / Math.max(1, v.uncachedTokens)).toFixed(2)}x fewer uncached prompt tokens; recall ${recall(v)} vs ${recall(bestValid)}` : 'none'}`);
  // The same ratio against the peers that keep at least variable's pooled recall (the trade the target asks for), for context.
  const asGood = v ? peerRows.filter((r) => (r.pooledReferenceRecall ?? 0) >= (v.pooledReferenceRecall ?? 0)).sort((a, b) => a.uncachedTokens - b.uncachedTokens)[0] : undefined;
  if (v && best) lines.push(`variable @ ${budget} vs the cheapest peer with pooled recall no lower than variable's: ${asGood ? `${asGood.name} (${asGood.invalid} invalid requests), ${(asGood.uncachedTokens / Math.max(1, v.uncachedTokens)).toFixed(2)}x fewer uncached prompt tokens; recall ${recall(v)} vs ${recall(asGood)}` : 'none'}`);
  // role_optimized against variable, trace by trace: it can differ only where a primary or a probe was replayed (`[replay-roles]`).
  const ofTrace = (strategy: string) => new Map(done.flatMap((d) => (d.result && d.result.strategy === strategy && d.result.budget === budget ? [[d.job.trace, d.result] as const] : [])));
  const variableOf = ofTrace('variable');
  const pairs = [...ofTrace('role_optimized')].flatMap(([trace, ro]) => (variableOf.has(trace) ? [{ ro, v: variableOf.get(trace)! }] : []));
  const same = (a: (typeof pairs)[number]) => a.ro.totals.promptTokens === a.v.totals.promptTokens && a.ro.totals.cacheRead === a.v.totals.cacheRead && a.ro.totals.input === a.v.totals.input;
  const cutting = pairs.filter((p) => p.ro.agents?.some((a) => a.role === 'primary' || a.role === 'probe'));
  lines.push(`role_optimized @ ${budget}: differs from variable on ${pairs.filter((p) => !same(p)).length} of ${pairs.length} traces; ${cutting.length} replay a primary or a probe (the roles it cuts for), ${cutting.filter((p) => !same(p)).length} of them differ`);
  // Requests a provider would refuse (`[replay-invalid]`), priced as nothing sent: per peer, with the reasons.
  const peerResults = all.filter((r) => r.budget === budget && peers.some((p) => p.name === r.strategy));
  if (peerResults.length > 0) {
    const invalid = peers.map((p) => {
      const rs = peerResults.filter((r) => r.strategy === p.name);
      const reasons = new Map<string, number>();
      for (const r of rs) for (const [reason, n] of Object.entries(r.totals.invalidReasons)) if (n > 0) reasons.set(reason, (reasons.get(reason) ?? 0) + n);
      const total = rs.reduce((n, r) => n + r.totals.invalidRequests, 0);
      const steps = rs.reduce((n, r) => n + r.totals.steps, 0);
      return `${p.name} ${total} of ${steps}${reasons.size > 0 ? ` (${[...reasons].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`;
    });
    lines.push(`peers @ ${budget}: invalid requests (priced as nothing sent): ${invalid.join('; ')}`);
  }
  // Re-reads the recorded agents made, and how many each row's context would have forced.
  const forced = rows.filter((r) => r.budget === budget || r.budget === null).map((r) => `${r.name} ${r.rereadsForced}`);
  lines.push(`re-reads @ ${budget}: the recorded agents made ${recorded.reduce((n, r) => n + (r.trace === 'all traces' ? 0 : r.rereads), 0)} (traces with usage); forced by each row: ${forced.join(', ')}`);
  const p50 = at.map((r) => r.totals.overheadP50Ms).sort((a, b) => a - b);
  lines.push(`variable @ ${budget}: per-step engine overhead p50 ${p50[Math.floor(p50.length / 2)]?.toFixed(1)} ms (median over traces; target < 5 ms)`);
}
lines.push(`whole benchmark: ${seconds.toFixed(0)} s (target < 300 s), ${errors.length} failed jobs`);
console.log(`\ntargets:\n${lines.map((l) => `  ${l}`).join('\n')}`);

function signed(x: number | null): string {
  return x === null ? '-' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
}

function traceOf(r: (typeof all)[number]): string {
  return done.find((d) => d.result === r)?.job.trace ?? '?';
}

function fmt(x: number | null): string {
  return x === null ? '-' : `${(x * 100).toFixed(1)}%`;
}

/** A row's recall on content, pooled and per step. */
function recall(r: CompareRow): string {
  return `${fmt(r.pooledReferenceRecall)} pooled / ${fmt(r.neededReferenceRecall)} per step`;
}

const out = join(root, 'bench', 'results');
mkdirSync(out, { recursive: true });
// Each job's wall time in its worker, to see where the time goes without a profiler.
const jobTimes = done.map((d) => ({ trace: basename(d.job.trace), name: jobName(d.job), budget: d.job.budget, ms: Math.round(d.ms) }));
writeFileSync(join(out, 'compare.json'), `${JSON.stringify({ seconds, files, rows, notes, recorded, targets: lines, errors, jobTimes, results: all.map((r) => ({ ...r, steps: r.steps })) })}\n`);
const md = [`# Strategy comparison`, '', `${files.length} traces, ${seconds.toFixed(0)} s.`, '', ...BUDGETS.flatMap((b) => [`## Budget ${b}`, '', '```', formatCompareTable(rows.filter((r: CompareRow) => r.budget === b || (r.budget === null && b === BUDGETS[0]))), '```', '']), RECALL_NOTE, '', '## Money and cache lifetime', '', ...notes.map((n) => `- ${n}`), '', ...(recorded.length > 0 ? ['## Recorded by the providers', '', '```', formatRecordedTable(recorded), '```', '', RECORDED_NOTE, ''] : []), '## Targets', '', ...lines.map((l) => `- ${l}`), ''].join('\n');
writeFileSync(join(out, 'compare.md'), md);
console.log(`\nwrote bench/results/compare.json and compare.md`);
