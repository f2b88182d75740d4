import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { COMPARISON_BUDGET } from '../../engine/contract';
import type { CacheProvider } from '../../engine/providers/cacheModel';
import { strategies } from '../../engine/strategies/strategies';
import type { StrategyName } from '../../engine/strategies/Strategy';
import { compareCsv, formatCompareTable } from '../../engine/traces/compare/compareTable';
import { runCompare, traceFiles } from '../../engine/traces/compare/runCompare';
import { UsageError } from '../shared/shellOptions';

export const compareUsage = `strata compare <files or folders> [options]
  --strategies a,b,...   engine strategies (${Object.keys(strategies).join(', ')}) and full_history_baseline;
                         default: all of them
  --budget <tokens>      the agents' budget (default 32000; --budget 32000,100000 for several)
  --provider <name>      anthropic (default) or openai: whose prompt cache prices the calls
  --json <file>          write every result (per-step series and totals) as JSON
  --csv <file>           write the table as CSV
  --peers                peer libraries side by side: a dev-only benchmark set, run from a source
                         checkout with 'npm run bench:compare -- <files> --peers'`;

interface CompareArgs {
  paths: string[];
  strategies: (StrategyName | 'full_history_baseline')[];
  budgets: number[];
  provider: CacheProvider;
  json?: string;
  csv?: string;
}

export function parseCompareArgs(argv: readonly string[]): CompareArgs {
  const out: CompareArgs = { paths: [], strategies: [...(Object.keys(strategies) as StrategyName[]), 'full_history_baseline'], budgets: [32_000], provider: 'anthropic' };
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
        const unknown = names.filter((n) => n !== 'full_history_baseline' && !(n in strategies));
        if (unknown.length || names.length === 0) throw new UsageError(`Unknown strategy ${unknown.join(', ') || '(none given)'}; use ${Object.keys(strategies).join(', ')} or full_history_baseline.`);
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
      case '--json':
        out.json = value();
        break;
      case '--csv':
        out.csv = value();
        break;
      case '--peers':
        throw new UsageError("The peer libraries are a dev-only benchmark set and are not shipped: from a source checkout run 'npm run bench:compare -- <files> --peers'.");
      default:
        if (arg.startsWith('-')) throw new UsageError(`Unknown option ${arg} for compare.`);
        out.paths.push(arg);
    }
  }
  if (out.paths.length === 0) throw new UsageError('compare needs at least one trace file or folder.');
  return out;
}

/** `strata compare`: one table on stdout, progress on stderr, machine-readable files on request. */
export async function compareCommand(argv: readonly string[]): Promise<number> {
  const args = parseCompareArgs(argv);
  const files = traceFiles(args.paths);
  if (files.length === 0) throw new UsageError(`No trace files under ${args.paths.join(', ')}.`);
  const run = await runCompare({
    files,
    strategies: args.strategies,
    budgets: args.budgets,
    provider: args.provider,
    inThread: true,
    onProgress: (p) => process.stderr.write(`\r[${p.done}/${p.total}] ${p.strategy} @ ${p.budget} · ${p.trace.split('/').at(-1)}`.padEnd(100)),
  });
  process.stderr.write(`\rreplayed ${run.results.length} of ${run.results.length + run.errors.length} jobs over ${files.length} traces in ${run.seconds.toFixed(1)} s`.padEnd(100) + '\n');
  for (const e of run.errors) process.stderr.write(`  failed: ${e.trace} (${e.strategy} @ ${e.budget}): ${e.error}\n`);
  console.log(formatCompareTable(run.rows));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  if (args.json) write(args.json, `${JSON.stringify({ files, rows: run.rows, results: run.results, errors: run.errors }, null, 2)}\n`);
  if (args.csv) write(args.csv, compareCsv(run.rows));
  return run.errors.length > 0 && run.results.length === 0 ? 1 : 0;
}
