/**
 * The recorded truth beside a comparison (`[replay-truth-reported]`): per trace that records its
 * provider's usage, what the real agents were billed (every agent's calls: prompt tokens,
 * uncached, hit rate) and how often they re-read what they had read, and for each baseline that ran (the agent as recorded, the no-limit full
 * history) what the cache model makes of it over the same steps and how far it is from the
 * recording, with how the fixed prefix was obtained (recorded, or estimated) and the token scale.
 * Pure.
 */
import { cacheHitRate, cacheHitRateOfPrompt } from '../../metrics/cacheHitRate';
import type { CacheProvider } from '../../providers/cacheModel';
import { providerOfModel } from '../replay/replayDefaults';
import type { ReplayResult } from '../replay/ReplayTypes';
import { alignTable, int, pct, usd } from './compareTable';

/** The cache model's pricing of a baseline, against the recording, over the steps both have. */
interface ModelledBaseline {
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
  /** Calls with a recorded usage, every agent's. */
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
  /** Reads of what the same agent had already read (`[replay-rereads]`), every agent's. */
  rereads: number;
  /** The agent as it ran (`as_recorded`); null when it was not part of the run. */
  asRecorded: ModelledBaseline | null;
  /** The no-limit full history (`full_history_baseline`); null when it was not part of the run. */
  fullHistory: ModelledBaseline | null;
  /** How the fixed prefix every row sends was obtained (null for a sum of several traces). */
  prefix: { note: string; estimated: boolean; tokenScale: number } | null;
}

const relative = (model: number, recorded: number) => (recorded === 0 ? null : (model - recorded) / recorded);

interface Accuracy {
  matched: number;
  recordedPrompt: number;
  modelPrompt: number;
  recordedRead: number;
  modelRead: number;
  /** The cache models that priced it. */
  providers: Set<CacheProvider>;
}

interface Sums {
  calls: number;
  prompt: number;
  input: number;
  read: number;
  write: number;
  /** Dollars of the traces whose recorded model has a list price, and how many those are. */
  usd: number;
  priced: number;
  rereads: number;
  /** Per baseline; absent when it did not run for every trace summed. */
  asRecorded?: Accuracy;
  fullHistory?: Accuracy;
}

function modelled(a: Accuracy | undefined): ModelledBaseline | null {
  return a
    ? {
        provider: a.providers.size === 1 ? [...a.providers][0]! : null,
        matched: a.matched,
        promptTokens: a.modelPrompt,
        hitRate: cacheHitRateOfPrompt(a.modelRead, a.modelPrompt),
        promptError: relative(a.modelPrompt, a.recordedPrompt),
        cacheReadError: relative(a.modelRead, a.recordedRead),
      }
    : null;
}

const addAccuracy = (x: Accuracy | undefined, y: Accuracy | undefined): Accuracy | undefined =>
  x && y
    ? { matched: x.matched + y.matched, recordedPrompt: x.recordedPrompt + y.recordedPrompt, modelPrompt: x.modelPrompt + y.modelPrompt, recordedRead: x.recordedRead + y.recordedRead, modelRead: x.modelRead + y.modelRead, providers: new Set([...x.providers, ...y.providers]) }
    : undefined;

/** See {@link RecordedRow.writesMissing}. */
const lacksWrites = (model: string | null, s: Sums) => s.write === 0 && s.read > 0 && (model === null || providerOfModel(model) === 'anthropic');

function row(trace: string, model: string | null, s: Sums, prefix: RecordedRow['prefix'], writesMissing = lacksWrites(model, s)): RecordedRow {
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
    rereads: s.rereads,
    asRecorded: modelled(s.asRecorded),
    fullHistory: modelled(s.fullHistory),
    prefix,
  };
}

/**
 * One row per trace whose replays carry a recorded usage (`ReplayResult.recorded`), in first-seen
 * order, and (unless `total` is false) an `all traces` row when there are several. Traces without
 * usage have no row.
 */
export function recordedRows(entries: readonly { trace: string; result: ReplayResult }[], options: { total?: boolean } = {}): RecordedRow[] {
  const byTrace = new Map<string, { model: string | null; sums: Sums; prefix: RecordedRow['prefix'] }>();
  for (const { trace, result } of entries) {
    const r = result.recorded;
    if (!r) continue;
    let t = byTrace.get(trace);
    if (!t) {
      const p = result.prefix;
      t = { model: r.model ?? null, sums: { calls: r.callsWithUsage, prompt: r.promptTokens, input: r.input, read: r.cacheRead, write: r.cacheWrite, usd: r.costUsd?.total ?? 0, priced: r.costUsd ? 1 : 0, rereads: r.rereads }, prefix: { note: p.note, estimated: p.estimated, tokenScale: p.tokenScale } };
      byTrace.set(trace, t);
    }
    const a = r.accuracy;
    const key = result.strategy === 'as_recorded' ? 'asRecorded' : result.strategy === 'full_history_baseline' ? 'fullHistory' : undefined;
    if (a && key && !t.sums[key]) t.sums[key] = { matched: a.matched, recordedPrompt: a.recordedPrompt, modelPrompt: a.modelPrompt, recordedRead: a.recordedCacheRead, modelRead: a.modelCacheRead, providers: new Set([a.provider]) };
  }
  const rows = [...byTrace].map(([trace, t]) => row(trace, t.model, t.sums, t.prefix));
  if (byTrace.size < 2 || options.total === false) return rows;
  const all = [...byTrace.values()];
  const total = all.slice(1).reduce<Sums>(
    (n, { sums: s }) => {
      const sum: Sums = { calls: n.calls + s.calls, prompt: n.prompt + s.prompt, input: n.input + s.input, read: n.read + s.read, write: n.write + s.write, usd: n.usd + s.usd, priced: n.priced + s.priced, rereads: n.rereads + s.rereads };
      const ar = addAccuracy(n.asRecorded, s.asRecorded);
      const fh = addAccuracy(n.fullHistory, s.fullHistory);
      if (ar) sum.asRecorded = ar;
      if (fh) sum.fullHistory = fh;
      return sum;
    },
    { ...(all[0] as { sums: Sums }).sums },
  );
  const models = new Set(all.map((t) => t.model));
  return [...rows, row('all traces', models.size === 1 ? [...models][0]! : null, total, null, rows.some((r) => r.writesMissing))];
}

const signed = (x: number | null) => (x === null ? '-' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

/** The rows as an aligned text table, as `strata compare` prints it under the strategies' table (notes under it: estimated prefixes, missing cache writes). */
export function formatRecordedTable(rows: readonly RecordedRow[]): string {
  const head = ['recorded (provider)', 'model', 'calls', 'prompt tokens', 'uncached', 'hit rate', 'total USD', 're-reads', 'cache model', 'as recorded (model)', 'error', 'full history (model)', 'error', 'prefix'];
  const body = rows.map((r) => {
    const m = r.asRecorded ?? r.fullHistory;
    return [
      r.trace,
      r.model ?? '-',
      int(r.calls),
      int(r.promptTokens),
      int(r.uncachedTokens),
      `${r.writesMissing ? '*' : ''}${pct(r.hitRate)}`,
      usd(r.costUsd),
      int(r.rereads),
      m ? (m.provider ?? 'mixed') : '-',
      r.asRecorded ? int(r.asRecorded.promptTokens) : '-',
      signed(r.asRecorded?.promptError ?? null),
      r.fullHistory ? int(r.fullHistory.promptTokens) : '-',
      signed(r.fullHistory?.promptError ?? null),
      r.prefix ? `${r.prefix.estimated ? 'estimated' : 'recorded'}, scale ${r.prefix.tokenScale.toFixed(2)}` : '-',
    ];
  });
  const notes = rows.flatMap((r) => (r.prefix ? [`  ${r.trace}: ${r.prefix.note}`] : []));
  const parts = [alignTable(head, body), 'fixed prefix (sent by every row, outside every budget):', ...notes];
  if (rows.some((r) => r.writesMissing))
    parts.push('* cache reads but no cache writes from a provider that bills them (Claude) or an unnamed model: the recorder likely left the writes out, so that hit rate and uncached figure are bounds, not what was billed.');
  return parts.join('\n');
}

/** What the recorded table's columns mean, printed under it. */
export const RECORDED_NOTE =
  "total USD: the recorded usage (output included) at the recorded model's list price, 1-hour cache writes at the 1-hour rate where the recording splits them ('-': no list price). re-reads: reads of a file (and range) the same agent had read and seen before, with no edit of it by that agent between (a sign of lost context, e.g. after a compaction). as recorded: the agent as it ran (its compactions followed, context clearing inferred where the billed prompt fell); full history: no limit. Both priced over the steps that recorded usage by the cache model of the recording's provider (else the run's), with the fixed prefix (recorded, or a stand-in calibrated on the first call, marked estimated) and the token scale fitted on the recording (provider tokens per counted token); errors are (model - recorded) / recorded.";
