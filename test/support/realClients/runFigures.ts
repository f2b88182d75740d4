import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';
import { priceRun } from '../../../engine/pricing/costUsd';
import { expectedUsage, type UsageFigures } from './importExpectations';
import type { HarnessCall } from './realClientHarness';

/**
 * A run's figures as the provider billed them (SPEC `[real-client-long-task]`): per model call the
 * prompt (uncached + cache read + cache write, the billed prompt tokens) and the share of it read
 * from cache, and the run's totals and money at the model's list price. A manage-mode run through
 * the gateway is compared against these (>= 40% fewer billed prompt tokens; >= 90% cache reads on
 * calls that are not generation boundaries).
 */

interface CallFigures extends UsageFigures {
  index: number;
  rule: string;
  prompt: number;
  /** Cache reads / prompt (`cacheHitRate`). */
  readShare: number;
}

export interface RunFigures {
  model: string;
  calls: CallFigures[];
  billedPromptTokens: number;
  cacheRead: number;
  output: number;
  /** Pooled cache reads / prompt over every call. */
  readShare: number;
  /** US dollars at the model's list price; null without one. */
  usd: number | null;
  priceNote: string;
}

export function runFigures(calls: readonly HarnessCall[]): RunFigures {
  const rows = calls.map((c) => {
    const u = expectedUsage(c);
    return { index: c.index, rule: c.rule, ...u, prompt: u.input + u.cacheRead + u.cacheWrite, readShare: cacheHitRate(u) };
  });
  const sum = (pick: (r: CallFigures) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const model = String(calls[0]?.body['model'] ?? 'unknown');
  const priced = priceRun(model, rows.map((r) => ({ ...r, promptTokens: r.prompt })));
  return {
    model,
    calls: rows,
    billedPromptTokens: sum((r) => r.prompt),
    cacheRead: sum((r) => r.cacheRead),
    output: sum((r) => r.output),
    readShare: cacheHitRate({ input: sum((r) => r.input), cacheRead: sum((r) => r.cacheRead), cacheWrite: sum((r) => r.cacheWrite) }),
    usd: priced.usd?.total ?? null,
    priceNote: priced.note,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The figures as a table for the test output. */
export function formatFigures(title: string, f: RunFigures): string {
  const head = `${title}: ${f.calls.length} calls, billed prompt tokens ${f.billedPromptTokens}, cache reads ${f.cacheRead} (${pct(f.readShare)} of the prompt), output ${f.output}, ${f.usd === null ? 'no list price' : `$${f.usd.toFixed(4)}`} (${f.priceNote})`;
  const rows = f.calls.map((c) => `  #${String(c.index).padStart(3)} ${c.rule.padEnd(12)} prompt ${String(c.prompt).padStart(7)}  uncached ${String(c.input).padStart(6)}  read ${String(c.cacheRead).padStart(7)}  write ${String(c.cacheWrite).padStart(6)}  read/prompt ${pct(c.readShare).padStart(6)}`);
  return [head, ...rows].join('\n');
}
