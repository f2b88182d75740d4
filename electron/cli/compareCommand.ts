import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { COMPARISON_BUDGET, COMPARISON_WINDOW } from '../../engine/contract';
import type { CacheProvider, CacheTtl } from '../../engine/providers/cacheModel';
import { strategies } from '../../engine/strategies/strategies';
import type { StrategyName } from '../../engine/strategies/Strategy';
import type { BaselineName } from '../../engine/traces/replay/ReplayTypes';
import { compareCsv, formatCompareTable, RECALL_NOTE, type CompareRow } from '../../engine/traces/compare/compareTable';
import { formatRecordedTable, RECORDED_NOTE } from '../../engine/traces/compare/recordedTable';
import { findTraceFiles, runCompare, type CompareRun } from '../../engine/node/traces/runCompare';
import { UsageError } from '../shared/shellOptions';

export const compareUsage = `strata compare <files or folders> [options]
  --strategies a,b,...   engine strategies (${Object.keys(strategies).join(', ')}), full_history_baseline
                         (no limit) and as_recorded (the agent as it ran, its compactions followed);
                         default: all of them
  --budget <tokens>      the agents' budget (default 32000; --budget 32000,100000 for several)
  --provider <name>      anthropic (default) or openai: whose prompt cache prices the calls
  --ttl <5m|1h>          the lifetime of every cache breakpoint; default: the one the recording
                         wrote its cache with (Claude Code's 1-hour writes), else 5m
  --window <tokens>      the context window every request is held against: a larger prompt (the
                         fixed prefix included) is refused as the provider would and the engine
                         refreshes; default: the window the recording states (Codex), else the
                         priced model's documented one (the table and its sources:
                         engine/models/contextWindows.ts), else none; the notes say which
  --model <name>         price every trace as this model (cache rules and list price); default:
                         each trace's recorded model. Dollars are list prices (the table and its
                         sources: engine/pricing/listPrices.ts); a model without one is left out
  --json <file>          write every result (per-step series and totals) as JSON
  --csv <file>           write the table as CSV
  --peers                also the peer libraries (LangChain trimMessages, Mastra TokenLimiter, the
                         AI SDK pruneMessages, full history) on the same transcripts and tokenizer;
                         they are dev dependencies, so this works from a source checkout after
                         'npm install', not in a packaged app`;

interface CompareArgs {
  paths: string[];
  strategies: (StrategyName | BaselineName)[];
  budgets: number[];
  provider: CacheProvider;
  ttl?: CacheTtl;
  window?: number;
  model?: string;
  json?: string;
  csv?: string;
  peers: boolean;
}

export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const out: CompareArgs = { paths: [], strategies: [...(Object.keys(strategies) as StrategyName[]), 'full_history_baseline', 'as_recorded'], budgets: [32_000], provider: 'anthropic', peers: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      return v;
    };
    switch (arg) {
      case '--strategies': {
        const names = value().split(',').map((s) => s.trim()).filter(Boolean);
        const unknown = names.filter((n) => n !== 'full_history_baseline' && n !== 'as_recorded' && !(n in strategies));
        if (unknown.length || names.length === 0) throw new UsageError(`Unknown strategy ${unknown.join(', ') || '(none given)'}; use ${Object.keys(strategies).join(', ')}, full_history_baseline or as_recorded.`);
        out.strategies = names as CompareArgs['strategies'];
        break;
      }
      case '--budget': {
        const raw = value();
        const budgets = raw.split(',').map((b) => Number(b.trim()));
        if (budgets.some((b) => !Number.isSafeInteger(b) || b < COMPARISON_BUDGET.min || b > COMPARISON_BUDGET.max)) throw new UsageError(`--budget takes whole token counts from ${COMPARISON_BUDGET.min} to ${COMPARISON_BUDGET.max} (got "${raw}").`);
        out.budgets = budgets;
        break;
      }
      case '--provider': {
        const p = value();
        if (p !== 'anthropic' && p !== 'openai') throw new UsageError(`--provider is anthropic or openai (got "${p}").`);
        out.provider = p;
        break;
      }
      case '--ttl': {
        const t = value();
        if (t !== '5m' && t !== '1h') throw new UsageError(`--ttl is 5m or 1h (got "${t}").`);
        out.ttl = t;
        break;
      }
      case '--window': {
        const raw = value();
        const w = Number(raw.trim());
        if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(w) || w < COMPARISON_WINDOW.min || w > COMPARISON_WINDOW.max) throw new UsageError(`--window takes one whole token count from ${COMPARISON_WINDOW.min} to ${COMPARISON_WINDOW.max} (got "${raw}").`);
        out.window = w;
        break;
      }
      case '--model': {
        const m = value().trim();
        if (m === '') throw new UsageError('--model needs a model name.');
        out.model = m;
        break;
      }
      case '--json':
        out.json = value();
        break;
      case '--csv':
        out.csv = value();
        break;
      case '--peers':
        out.peers = true;
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg} for compare.`);
        out.paths.push(arg);
    }
  }
  if (out.paths.length === 0) throw new UsageError('compare needs at least one trace file or folder.');
  return out;
}

/** The progress line of one finished job (on stderr, rewritten in place). */
export const progressLine = (done: number, total: number, name: string, budget: number, trace: string) => `\r[${done}/${total}] ${name} @ ${budget} · ${trace.split('/').at(-1)}`.padEnd(100);

/**
 * Prints the table, the notes (what its dollars and cache TTLs rest on) and the failures, writes
 * `--json` and `--csv`; the exit code (1 when no job succeeded).
 */
export function reportComparison(args: Pick<CompareArgs, 'json' | 'csv'>, files: readonly string[], run: Pick<CompareRun, 'results' | 'errors' | 'seconds' | 'recorded' | 'notes'> & { rows: CompareRow[] }): number {
  process.stderr.write(`\rreplayed ${run.results.length} of ${run.results.length + run.errors.length} jobs over ${files.length} traces in ${run.seconds.toFixed(1)} s`.padEnd(100) + '\n');
  for (const e of run.errors) process.stderr.write(`  failed: ${e.trace} (${e.strategy} @ ${e.budget}): ${e.error}\n`);
  console.log(formatCompareTable(run.rows));
  console.log(`\n${RECALL_NOTE}`);
  if (run.notes.length > 0) console.log(`\n${run.notes.join('\n')}`);
  if (run.recorded.length > 0) console.log(`\n${formatRecordedTable(run.recorded)}\n${RECORDED_NOTE}`);
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  if (args.json) write(args.json, `${JSON.stringify({ files, rows: run.rows, notes: run.notes, recorded: run.recorded, results: run.results, errors: run.errors }, null, 2)}\n`);
  if (args.csv) write(args.csv, compareCsv(run.rows));
  return run.errors.length > 0 && run.results.length === 0 ? 1 : 0;
}

/** The source checkout this CLI runs from (out/main/cli.js and electron/cli/*.ts are both two folders down). */
const checkoutRoot = () => resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The dev-only runner of `--peers`, relative to the checkout. */
export const PEERS_RUNNER = 'test/bench/compare/comparePeersCli.ts';

/**
 * How to run the peers from `root`: the runner and tsx's loader (both dev-only), or why not.
 * The peer libraries are dev dependencies and never shipped, so `--peers` runs the benchmark's own
 * worker pool in a child Node process from the source checkout.
 */
export function peersRunner(root: string): { script: string; loader: string } | { missing: string } {
  const script = join(root, PEERS_RUNNER);
  if (!existsSync(script)) return { missing: `${PEERS_RUNNER} (not a source checkout)` };
  try {
    const req = createRequire(join(root, 'package.json'));
    const loader = req.resolve('tsx');
    for (const dep of ['@langchain/core/messages', '@mastra/memory/processors', 'ai']) req.resolve(dep);
    return { script, loader };
  } catch (err) {
    return { missing: `the dev dependencies (${(err as Error).message.split('\n')[0]})` };
  }
}

/** `--peers`: the same comparison plus the peer libraries, run by the dev-only runner in a child Node process. */
function comparePeers(argv: readonly string[], root: string): Promise<number> {
  const runner = peersRunner(root);
  if ('missing' in runner) throw new UsageError(`--peers runs the peer libraries, which are dev dependencies and not part of this installation: ${runner.missing} is missing. From a source checkout, run 'npm install' and then 'npm run strata -- compare <files> --peers'.`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(runner.loader).href, runner.script, ...argv], { stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** `strata compare`: one table on stdout, progress on stderr, machine-readable files on request. */
export async function compareCommand(argv: readonly string[], root = checkoutRoot()): Promise<number> {
  const args = parseCompareArgs(argv);
  const { files, refused } = findTraceFiles(args.paths);
  // An entry that cannot be read is named and left out; the other traces are still compared.
  for (const r of refused) process.stderr.write(`strata: skipped ${r.error}\n`);
  if (files.length === 0) throw new UsageError(`No trace files under ${args.paths.join(', ')}${refused.length > 0 ? ` that could be read (${refused.length} refused)` : ''}.`);
  if (args.peers) return comparePeers(argv, root);
  const run = await runCompare({
    files,
    strategies: args.strategies,
    budgets: args.budgets,
    provider: args.provider,
    ...(args.model ? { model: args.model } : {}),
    ...(args.ttl ? { ttl: args.ttl } : {}),
    ...(args.window !== undefined ? { window: args.window } : {}),
    inThread: true,
    onProgress: (p) => process.stderr.write(progressLine(p.done, p.total, p.strategy, p.budget, p.trace)),
  });
  return reportComparison(args, files, run);
}
