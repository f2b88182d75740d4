/**
 * The recorded truth beside a comparison (`[replay-truth-reported]`): per trace that records its
 * provider's usage, what the real agent was billed (prompt tokens, uncached, hit rate), and when
 * the full-history baseline ran, what the cache model makes of that baseline over the same steps
 * and how far it is from the recording. Pure.
 */
import { cacheHitRate, cacheHitRateOfPrompt } from '../../metrics/cacheHitRate';
import type { CacheProvider } from '../../providers/cacheModel';
import { providerOfModel } from '../replay/replayDefaults';
import type { ReplayResult } from '../replay/ReplayTypes';
import { alignTable, int, pct, usd } from './compareTable';

/** The cache model's pricing of the full-history baseline, against the recording, over the steps both have. */
export interface ModelledBaseline {
  /** Whose cache model priced it: the recording's provider when known (null for a sum over several). */
  provider: CacheProvider | null;
  /** Steps with a recorded usage that the baseline also priced. */
  matched: number;
  promptTokens: number;
  hitRate: number;
  /** (modelled − recorded) / recorded over the matched steps; null when nothing was recorded there. */
  promptError: number | null;
  cacheReadError: number | null;
}

export interface RecordedRow {
  /** The trace's name; `all traces` for the sum of several. */
  trace: string;
  /** The recorded model, when the trace names one (null for the sum of several models). */
  model: string | null;
  /** Main-agent calls with a recorded usage. */
  calls: number;
  promptTokens: number;
  /** Recorded input and cache writes: prompt tokens not read from a cache. */
  uncachedTokens: number;
  /** Recorded cache writes. */
  cacheWriteTokens: number;
  /**
   * Cache reads but not one cache write, from a model whose provider bills writes (Claude) or an
   * unnamed one: the recorder likely left the writes out (a converted session), so the hit rate and
   * uncached figure are bounds. OpenAI and DeepSeek bill no writes, so theirs are never marked.
   */
  writesMissing: boolean;
  hitRate: number;
  /**
   * What the recorded usage costs at the recorded model's list prices, output included (`[cost-usd]`;
   * 1-hour writes at the 1-hour rate where the recording splits them); null when that model has no
   * list price (for several traces: the sum over those that have one).
   */
  costUsd: number | null;
  /** Null when the baseline was not part of the run. */
  modelled: ModelledBaseline | null;
}

const relative = (model: number, recorded: number) => (recorded === 0 ? null : (model - recorded) / recorded);

interface Sums {
  calls: number;
  prompt: number;
  input: number;
  read: number;
  write: number;
  /** Dollars of the traces whose recorded model has a list price, and how many those are. */
  usd: number;
  priced: number;
  matched: number;
  recordedPrompt: number;
  modelPrompt: number;
  recordedRead: number;
  modelRead: number;
  /** Every trace summed had a modelled baseline. */
  modelledAll: boolean;
  /** The cache models that priced the summed baselines. */
  providers: Set<CacheProvider>;
}

/** See {@link RecordedRow.writesMissing}. */
const lacksWrites = (model: string | null, s: Sums) => s.write === 0 && s.read > 0 && (model === null || providerOfModel(model) === 'anthropic');

function row(trace: string, model: string | null, s: Sums, writesMissing = lacksWrites(model, s)): RecordedRow {
  return {
    trace,
    model,
    calls: s.calls,
    promptTokens: s.prompt,
    uncachedTokens: s.input + s.write,
    cacheWriteTokens: s.write,
    writesMissing,
    hitRate: cacheHitRate({ input: s.input, cacheRead: s.read, cacheWrite: s.write }),
    costUsd: s.priced > 0 ? s.usd : null,
    modelled: s.modelledAll
      ? {
          provider: s.providers.size === 1 ? [...s.providers][0]! : null,
          matched: s.matched,
          promptTokens: s.modelPrompt,
          hitRate: cacheHitRateOfPrompt(s.modelRead, s.modelPrompt),
          promptError: relative(s.modelPrompt, s.recordedPrompt),
          cacheReadError: relative(s.modelRead, s.recordedRead),
        }
      : null,
  };
}

/**
 * One row per trace whose replays carry a recorded usage (`ReplayResult.recorded`), in first-seen
 * order, and (unless `total` is false) an `all traces` row when there are several. Traces without
 * usage have no row.
 */
export function recordedRows(entries: readonly { trace: string; result: ReplayResult }[], options: { total?: boolean } = {}): RecordedRow[] {
  const byTrace = new Map<string, { model: string | null; sums: Sums }>();
  for (const { trace, result } of entries) {
    const r = result.recorded;
    if (!r) continue;
    let t = byTrace.get(trace);
    if (!t) {
      t = { model: r.model ?? null, sums: { calls: r.callsWithUsage, prompt: r.promptTokens, input: r.input, read: r.cacheRead, write: r.cacheWrite, usd: r.costUsd?.total ?? 0, priced: r.costUsd ? 1 : 0, matched: 0, recordedPrompt: 0, modelPrompt: 0, recordedRead: 0, modelRead: 0, modelledAll: false, providers: new Set() } };
      byTrace.set(trace, t);
    }
    const a = r.accuracy;
    if (a && !t.sums.modelledAll) Object.assign(t.sums, { matched: a.matched, recordedPrompt: a.recordedPrompt, modelPrompt: a.modelPrompt, recordedRead: a.recordedCacheRead, modelRead: a.modelCacheRead, modelledAll: true, providers: new Set([a.provider]) });
  }
  const rows = [...byTrace].map(([trace, t]) => row(trace, t.model, t.sums));
  if (byTrace.size < 2 || options.total === false) return rows;
  const all = [...byTrace.values()];
  const total = all.reduce<Sums>(
    (n, { sums: s }) => ({
      calls: n.calls + s.calls,
      prompt: n.prompt + s.prompt,
      input: n.input + s.input,
      read: n.read + s.read,
      write: n.write + s.write,
      usd: n.usd + s.usd,
      priced: n.priced + s.priced,
      matched: n.matched + s.matched,
      recordedPrompt: n.recordedPrompt + s.recordedPrompt,
      modelPrompt: n.modelPrompt + s.modelPrompt,
      recordedRead: n.recordedRead + s.recordedRead,
      modelRead: n.modelRead + s.modelRead,
      modelledAll: n.modelledAll && s.modelledAll,
      providers: new Set([...n.providers, ...s.providers]),
    }),
    { calls: 0, prompt: 0, input: 0, read: 0, write: 0, usd: 0, priced: 0, matched: 0, recordedPrompt: 0, modelPrompt: 0, recordedRead: 0, modelRead: 0, modelledAll: true, providers: new Set() },
  );
  const models = new Set(all.map((t) => t.model));
  return [...rows, row('all traces', models.size === 1 ? [...models][0]! : null, total, rows.some((r) => r.writesMissing))];
}

const signed = (x: number | null) => (x === null ? '-' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

/** The rows as an aligned text table, as `strata compare` prints it under the strategies' table (a note under it when some recording lacks cache writes). */
export function formatRecordedTable(rows: readonly RecordedRow[]): string {
  const head = ['recorded (provider)', 'model', 'calls', 'prompt tokens', 'uncached', 'hit rate', 'total USD', 'cache model', 'baseline (model)', 'model hit rate', 'prompt error', 'cache-read error'];
  const body = rows.map((r) => [
    r.trace,
    r.model ?? '-',
    int(r.calls),
    int(r.promptTokens),
    int(r.uncachedTokens),
    `${r.writesMissing ? '*' : ''}${pct(r.hitRate)}`,
    usd(r.costUsd),
    r.modelled ? (r.modelled.provider ?? 'mixed') : '-',
    r.modelled ? int(r.modelled.promptTokens) : '-',
    r.modelled ? pct(r.modelled.hitRate) : '-',
    signed(r.modelled?.promptError ?? null),
    signed(r.modelled?.cacheReadError ?? null),
  ]);
  const table = alignTable(head, body);
  return rows.some((r) => r.writesMissing)
    ? `${table}\n* cache reads but no cache writes from a provider that bills them (Claude) or an unnamed model: the recorder likely left the writes out, so that hit rate and uncached figure are bounds, not what was billed.`
    : table;
}

/** What the recorded table's columns mean, printed under it. */
export const RECORDED_NOTE =
  "total USD: the recorded usage (output included) at the recorded model's list price, 1-hour cache writes at the 1-hour rate where the recording splits them ('-': no list price). baseline (model): the full-history baseline priced over the steps that recorded usage by the cache model of the recording's provider (else the run's); errors are (model - recorded) / recorded. The replay counts transcript text only, so real prompts (system prompt, tool schemas) are larger.";
