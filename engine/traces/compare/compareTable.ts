import type { ReplayResult } from '../replay/ReplayTypes';

/** Per strategy (or peer), the comparison's figures summed over the traces of a run. */
export interface CompareRow {
  name: string;
  budget: number | null;
  traces: number;
  steps: number;
  promptTokens: number;
  meanPromptTokens: number;
  uncachedTokens: number;
  /** Anthropic list-price units (uncached 1, cache read 0.1, cache write 1.25 per token). */
  cost: number;
  hitRate: number;
  /** Byte-weighted prefix reuse over every step after each trace's first. */
  prefixReuse: number;
  /** Mean needed-reference recall over the steps whose action names a file or symbol. */
  neededReferenceRecall: number | null;
  orphans: number;
  refreshes: number;
}

/** One row per (name, budget) from replay results of several traces (pure). */
export function compareRows(results: readonly ReplayResult[]): CompareRow[] {
  const groups = new Map<string, ReplayResult[]>();
  for (const r of results) {
    const key = `${r.strategy}@${r.budget ?? 'none'}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((rs) => {
    const sum = (f: (r: ReplayResult) => number) => rs.reduce((n, r) => n + f(r), 0);
    const steps = sum((r) => r.totals.steps);
    const prompt = sum((r) => r.totals.promptTokens);
    const read = sum((r) => r.totals.cacheRead);
    const recallSteps = rs.flatMap((r) => r.steps.flatMap((s) => (s.neededReferenceRecall === undefined ? [] : [s.neededReferenceRecall])));
    const promptBytes = sum((r) => r.totals.promptBytes - (r.steps[0]?.promptBytes ?? 0));
    return {
      name: rs[0]!.strategy,
      budget: rs[0]!.budget,
      traces: rs.length,
      steps,
      promptTokens: prompt,
      meanPromptTokens: steps ? Math.round(prompt / steps) : 0,
      uncachedTokens: prompt - read,
      cost: Math.round(sum((r) => r.totals.cost)),
      hitRate: prompt ? read / prompt : 0,
      prefixReuse: promptBytes > 0 ? sum((r) => r.totals.reusedBytes) / promptBytes : 0,
      neededReferenceRecall: recallSteps.length ? recallSteps.reduce((a, b) => a + b, 0) / recallSteps.length : null,
      orphans: sum((r) => r.totals.orphanedToolResults),
      refreshes: sum((r) => r.totals.refreshes),
    };
  });
}

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
export const int = (x: number) => Math.round(x).toLocaleString('en-US');

/** An aligned text table: the first column left-aligned, the others right-aligned. */
export function alignTable(head: readonly string[], body: readonly string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The rows as an aligned text table, as `strata compare` prints it. */
export function formatCompareTable(rows: readonly CompareRow[]): string {
  const head = ['strategy', 'budget', 'traces', 'steps', 'prompt tokens', 'mean prompt', 'uncached', 'cost units', 'hit rate', 'prefix reuse', 'recall', 'orphans', 'refreshes'];
  const body = rows.map((r) => [r.name, r.budget === null ? '-' : int(r.budget), String(r.traces), int(r.steps), int(r.promptTokens), int(r.meanPromptTokens), int(r.uncachedTokens), int(r.cost), pct(r.hitRate), pct(r.prefixReuse), r.neededReferenceRecall === null ? '-' : pct(r.neededReferenceRecall), String(r.orphans), String(r.refreshes)]);
  return alignTable(head, body);
}

/** The rows as CSV (header first). */
export function compareCsv(rows: readonly CompareRow[]): string {
  const keys = Object.keys(rows[0] ?? {}) as (keyof CompareRow)[];
  const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  return [keys.join(','), ...rows.map((r) => keys.map((k) => cell(r[k])).join(','))].join('\n') + '\n';
}
