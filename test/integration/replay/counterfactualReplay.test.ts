/**
 * Counterfactual replay of real sessions (read in place from the shared traces folder, never
 * copied): the smallest trace of each of the three formats under `variable` and `full_history` at
 * 32k tokens, in this thread, and one batch through the worker runner. Prints a table per run.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import type { ReplayResult, ReplayTotals } from '../../../engine/traces/replay/ReplayTypes';
import { runReplayJob, runReplayJobs, sharedTokenizer, type ReplayJob, type ReplayProgress } from '../../../engine/node/traces/replayWorker';
import type { TraceFormat } from '../../../engine/traces/TraceEvent';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const tracesDir = process.env.STRATA_TRACES_DIR ?? path.resolve(repoRoot, '../shared/traces');
const available = existsSync(tracesDir);
const FORMATS: TraceFormat[] = ['openai-messages-json', 'claude-code-jsonl', 'codex-rollout-jsonl'];
const BUDGET = 32_000;
const STRATEGIES = ['variable', 'full_history'] as const;

/** The smallest trace file of a format's folder (the folders are named after their format). */
function smallest(format: TraceFormat): string | undefined {
  const folder = path.join(tracesDir, format);
  if (!existsSync(folder)) return undefined;
  const files = readdirSync(folder)
    .filter((f) => /\.(jsonl?)$/.test(f))
    .map((f) => path.join(folder, f))
    .sort((a, b) => statSync(a).size - statSync(b).size || a.localeCompare(b));
  return files[0];
}

const traces = available ? FORMATS.flatMap((format) => (smallest(format) ? [{ format, file: smallest(format) as string }] : [])) : [];

const pct = (x: number | undefined) => (x === undefined ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
function row(name: string, r: ReplayResult): string {
  const t: ReplayTotals = r.totals;
  return [
    name.padEnd(14),
    String(t.steps).padStart(5),
    String(Math.round(t.meanPromptTokens)).padStart(11),
    pct(t.prefixReuse).padStart(8),
    pct(t.hitRate).padStart(8),
    pct(t.neededReferenceRecall).padStart(8),
    String(t.orphanedToolResults).padStart(7),
    String(t.generations).padStart(4),
    t.overheadP50Ms.toFixed(2).padStart(9),
  ].join(' ');
}
const HEADER = `${'strategy'.padEnd(14)} steps mean-prompt    reuse hit-rate   recall orphans gens engine-p50ms`;

/** A result without the wall-clock fields, which are the only ones that differ between two runs. */
function withoutTimings(r: ReplayResult) {
  const { overheadMs, overheadP50Ms, overheadP95Ms, tokenizeMs, overheadExclTokenizeP50Ms, ...totals } = r.totals;
  void [overheadMs, overheadP50Ms, overheadP95Ms, tokenizeMs, overheadExclTokenizeP50Ms];
  return { ...r, totals, steps: r.steps.map(({ overheadMs: _o, tokenizeMs: _t, ...s }) => s) };
}

describe('counterfactual replay of real traces', () => {
  if (!available) console.warn(`counterfactualReplay: SKIPPED, the traces folder ${tracesDir} does not exist (set STRATA_TRACES_DIR to replay real traces)`);

  it.skipIf(!available)('[replay-counterfactual] the traces folder holds a trace of each of the three formats', () => {
    expect(traces.map((t) => t.format)).toEqual(FORMATS);
  });

  for (const { format, file } of traces) {
    it(`[replay-counterfactual] [replay-orphans] [replay-budget] [replay-recall] replays ${format}/${path.basename(file)} under variable and full_history at 32k`, () => {
      const started = performance.now();
      const imported = importTraceFile(file);
      expect(imported.format).toBe(format);
      const lines = [`trace ${format}/${path.basename(file)}`, `  ${HEADER}`];
      for (const strategy of STRATEGIES) {
        const r = runReplayJob({ trace: file, strategy, budget: BUDGET, provider: format === 'claude-code-jsonl' ? 'anthropic' : 'openai' }, imported.events);
        expect(r.steps.length).toBeGreaterThan(0);
        if (strategy === 'variable') expect(r.totals.orphanedToolResults).toBe(0);
        for (const s of r.steps) {
          expect(s.engineTokens).toBeLessThanOrEqual(BUDGET);
          if (s.neededReferenceRecall !== undefined) {
            expect(s.neededReferenceRecall).toBeGreaterThanOrEqual(0);
            expect(s.neededReferenceRecall).toBeLessThanOrEqual(1);
          }
        }
        expect(r.totals.overBudgetSteps).toBe(0);
        lines.push(`  ${row(strategy, r)}`);
      }
      lines.push(`  (${Math.round(performance.now() - started)} ms)`);
      console.log(lines.join('\n'));
    }, 120_000);
  }

  it.skipIf(traces.length === 0)('[replay-worker] runs a batch in a worker thread with progress messages, and gives the in-thread results', async () => {
    const file = (traces[0] as { file: string }).file;
    const jobs: ReplayJob[] = STRATEGIES.map((strategy) => ({ trace: file, strategy, budget: BUDGET, provider: 'openai' }));
    const progress: ReplayProgress[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const results = await runReplayJobs(jobs, { onProgress: (p) => progress.push(p) });
    clearInterval(timer);
    expect(progress.map((p) => [p.done, p.total, p.trace, p.strategy])).toEqual(jobs.map((j, i) => [i + 1, jobs.length, j.trace, j.strategy]));
    // The calling thread kept running its own timers while the worker replayed.
    expect(ticks).toBeGreaterThan(0);
    const events = importTraceFile(file).events;
    results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.job).toEqual(jobs[i]);
      expect(withoutTimings(r.result as ReplayResult)).toEqual(withoutTimings(runReplayJob(jobs[i] as ReplayJob, events, sharedTokenizer())));
    });
  }, 120_000);

  it('[replay-worker] a job that cannot run carries its error and the batch still finishes', async () => {
    const results = await runReplayJobs([{ trace: path.join(tracesDir, 'no-such-trace.jsonl'), strategy: 'variable', budget: BUDGET, provider: 'openai' }]);
    expect(results).toHaveLength(1);
    expect(results[0]?.error).toMatch(/no-such-trace/);
  }, 60_000);
});
