import { cacheHitRate } from '../../metrics/cacheHitRate';
import { reuseRatio } from '../../metrics/prefixReuse';
import { addCosts } from '../../pricing/costUsd';
import type { ReplayResult } from '../replay/ReplayTypes';
import { ttlSummary } from './compareNotes';
import { windowSummary } from './contextNotes';

/** Per strategy (or peer), the comparison's figures summed over the traces of a run. */
export interface CompareRow {
  name: string;
  budget: number | null;
  traces: number;
  steps: number;
  promptTokens: number;
  meanPromptTokens: number;
  /** Prompt tokens not read from a cache (uncached input and cache writes). */
  uncachedTokens: number;
  /**
   * US dollars at list prices (`[cost-usd]`), summed over the traces whose priced model has a list
   * price (`pricedTraces`): the prompt (input, cache reads, cache writes) and the whole (with
   * output). Null when no trace is priced.
   */
  promptUsd: number | null;
  totalUsd: number | null;
  inputUsd: number | null;
  cacheReadUsd: number | null;
  cacheWriteUsd: number | null;
  outputUsd: number | null;
  pricedTraces: number;
  /** The models priced, comma-separated (an unpriced one marked "no list price"). */
  models: string;
  /** The cache TTL of the traces and why (`[replay-ttl]`), e.g. `1h: from the recording ×3; 5m: default ×1`. */
  ttl: string;
  /** The context window of the traces and where it came from (`[replay-window-default]`), e.g. `1,000,000 (model table) ×2; 258,400 (recording) ×1`. */
  window: string;
  /** `cacheHitRate` of the summed tokens. */
  hitRate: number;
  /** Byte-weighted prefix reuse over every step after each trace's first (`reuseRatio` of the sums). */
  prefixReuse: number;
  /** Needed-reference recall per step (`[replay-recall]`): the mean over the steps whose action needs content. */
  neededReferenceRecall: number | null;
  /** Needed-reference recall pooled: content references held / needed over every step. */
  pooledReferenceRecall: number | null;
  /** Content references needed and held, summed (what the pooled recall divides). */
  references: number;
  referencesHeld: number;
  /** Recorded re-reads whose content the row's request did not hold (`[replay-rereads]`). */
  rereadsForced: number;
  orphans: number;
  /** Requests a provider would refuse (`[replay-invalid]`), priced as nothing sent. */
  invalid: number;
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
    const references = sum((r) => r.totals.references);
    const recallSteps = rs.flatMap((r) => r.steps.flatMap((s) => (s.neededReferenceRecall === undefined ? [] : [s.neededReferenceRecall])));
    // Each trace's first step has no previous prompt (and no reused bytes): it stays out of reuse.
    const promptBytes = sum((r) => r.totals.promptBytes - (r.steps[0]?.promptBytes ?? 0));
    const priced = rs.flatMap((r) => (r.totals.costUsd ? [r.totals.costUsd] : []));
    const money = priced.length > 0 ? addCosts(priced) : null;
    const models = [...new Set(rs.map((r) => (r.totals.costUsd ? r.model : `${r.model} (no list price)`)))];
    return {
      name: rs[0]!.strategy,
      budget: rs[0]!.budget,
      traces: rs.length,
      steps,
      promptTokens: prompt,
      meanPromptTokens: steps ? Math.round(prompt / steps) : 0,
      uncachedTokens: prompt - read,
      promptUsd: money && money.prompt,
      totalUsd: money && money.total,
      inputUsd: money && money.input,
      cacheReadUsd: money && money.cacheRead,
      cacheWriteUsd: money && money.cacheWrite,
      outputUsd: money && money.output,
      pricedTraces: priced.length,
      models: models.join(', '),
      ttl: ttlSummary(rs.map((r) => r.cacheTtl)),
      window: windowSummary(rs.map((r) => r.window)),
      hitRate: cacheHitRate({ input: sum((r) => r.totals.input), cacheRead: read, cacheWrite: sum((r) => r.totals.cacheWrite) }),
      prefixReuse: reuseRatio(sum((r) => r.totals.reusedBytes), promptBytes),
      neededReferenceRecall: recallSteps.length ? recallSteps.reduce((a, b) => a + b, 0) / recallSteps.length : null,
      pooledReferenceRecall: references > 0 ? sum((r) => r.totals.referencesHeld) / references : null,
      references,
      referencesHeld: sum((r) => r.totals.referencesHeld),
      rereadsForced: sum((r) => r.totals.rereadsForced),
      orphans: sum((r) => r.totals.orphanedToolResults),
      invalid: sum((r) => r.totals.invalidRequests),
      refreshes: sum((r) => r.totals.refreshes),
    };
  });
}

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
export const int = (x: number) => Math.round(x).toLocaleString('en-US');
/** US dollars: cents from $1, four decimals below (sums' float noise rounded away first); `-` for none. */
export function usd(dollars: number | null): string {
  if (dollars === null) return '-';
  const x = Number(dollars.toPrecision(12));
  return `$${x >= 1 ? x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : x.toFixed(4)}`;
}

/** An aligned text table: the first column left-aligned, the others right-aligned. */
export function alignTable(head: readonly string[], body: readonly string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/**
 * The rows as an aligned text table, as `strata compare` prints it: dollars at list prices
 * (`prompt USD` without output, `total USD` with it); a `*` marks a sum over fewer traces than the
 * row has (some had no list price); recall on content pooled and per step, and the re-reads the
 * row's context would have forced (`RECALL_NOTE`). `compareNotes` says what the dollars and TTLs
 * rest on.
 */
export function formatCompareTable(rows: readonly CompareRow[]): string {
  const head = ['strategy', 'budget', 'traces', 'steps', 'prompt tokens', 'mean prompt', 'uncached', 'prompt USD', 'total USD', 'hit rate', 'prefix reuse', 'recall pooled', 'recall/step', 'forced re-reads', 'orphans', 'invalid', 'refreshes'];
  const partial = (r: CompareRow) => (r.pricedTraces > 0 && r.pricedTraces < r.traces ? '*' : '');
  const body = rows.map((r) => [r.name, r.budget === null ? '-' : int(r.budget), String(r.traces), int(r.steps), int(r.promptTokens), int(r.meanPromptTokens), int(r.uncachedTokens), `${partial(r)}${usd(r.promptUsd)}`, `${partial(r)}${usd(r.totalUsd)}`, pct(r.hitRate), pct(r.prefixReuse), r.pooledReferenceRecall === null ? '-' : pct(r.pooledReferenceRecall), r.neededReferenceRecall === null ? '-' : pct(r.neededReferenceRecall), String(r.rereadsForced), String(r.orphans), String(r.invalid), String(r.refreshes)]);
  return alignTable(head, body);
}

/** What the recall and re-read columns mean, printed under the table. */
export const RECALL_NOTE =
  "recall: of the content the recorded agent used next (the lines a read returned, an edit's old lines, a failure it cites), the share the row's request already held (80% of a reference's lines; a name alone does not count; a first read is never held), pooled over all references and as the mean per step. forced re-reads: the recorded agent's re-reads of content it had already seen that the row's request no longer held.";

/** The rows as CSV (header first). */
export function compareCsv(rows: readonly CompareRow[]): string {
  const keys = Object.keys(rows[0] ?? {}) as (keyof CompareRow)[];
  const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  return [keys.join(','), ...rows.map((r) => keys.map((k) => cell(r[k])).join(','))].join('\n') + '\n';
}
