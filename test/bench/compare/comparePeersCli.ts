// `strata compare … --peers` from a source checkout: the CLI (electron/cli/compareCommand.ts)
// starts this file in a child Node process with tsx, because the peer libraries are dev
// dependencies that the shipped CLI never bundles. Same options, same table, same --json and
// --csv as `strata compare`, with every peer of the benchmark (`benchPeerAdapters`) beside the
// engine's strategies, at every budget, over the benchmark's worker pool. Exit codes as the CLI:
// 0, 1 when no job succeeded, 2 for bad options.
import { availableParallelism } from 'node:os';
import { parseCompareArgs, progressLine, reportComparison } from '../../../electron/cli/compareCommand';
import { UsageError } from '../../../electron/shared/shellOptions';
import { compareRows } from '../../../engine/traces/compare/compareTable';
import { compareJobs, notesOf, recordedOf, traceFiles } from '../../../engine/node/traces/runCompare';
import { failedJobs, jobName, runCompareJobs, withPeerJobs } from './compareWorker';
import { benchPeerAdapters } from './peers';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCompareArgs(argv);
  const files = traceFiles(args.paths);
  if (files.length === 0) throw new UsageError(`No trace files under ${args.paths.join(', ')}.`);
  const engineJobs = compareJobs({ files, strategies: args.strategies, budgets: args.budgets, provider: args.provider, ...(args.model ? { model: args.model } : {}), ...(args.ttl ? { ttl: args.ttl } : {}) });
  const jobs = withPeerJobs(engineJobs, benchPeerAdapters, args.budgets, args.provider, { ...(args.model ? { model: args.model } : {}), ...(args.ttl ? { ttl: args.ttl } : {}) });
  const t0 = performance.now();
  const done = await runCompareJobs(jobs, {
    workers: Math.max(1, Math.min(availableParallelism(), 4)),
    onResult: ({ job }, n, total) => process.stderr.write(progressLine(n, total, jobName(job), job.budget, job.trace)),
  });
  const results = done.flatMap((d) => (d.result ? [d.result] : []));
  return reportComparison(args, files, { results, errors: failedJobs(done), rows: compareRows(results), recorded: recordedOf(done), notes: notesOf(done), seconds: (performance.now() - t0) / 1000 });
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  console.error(`strata: ${(err as Error).message}`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
