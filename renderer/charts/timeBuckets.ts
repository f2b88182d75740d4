import { cacheHitRate } from '../../engine/metrics/cacheHitRate';
import { reuseRatio } from '../../engine/metrics/prefixReuse';
import { type ChartMarker, chartMarkers, type TokenSplit } from '../store/usage/usageSelectors';
import type { CallPoint, GenerationMarker } from '../store/usage/usageSlice';

/**
 * The all-agents charts plot one point per slice of the run clock, not one per call: with 200
 * agents the newest calls are a zigzag of random agents' turns, and each batch that moves 500 raw
 * points costs a recharts chart a frame or two (its store recomputes every series, stack and path
 * per data change). A slice says what all agents did in that span; the one-agent charts stay per call.
 */
export const overallBucketLimit = 100;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Round slice widths, so a slice reads as "per 2 min" and its boundaries stay put as the window moves. */
const bucketWidths: readonly number[] = [
  ...[1, 2, 5, 10, 15, 30].map((s) => s * SECOND),
  ...[1, 2, 5, 10, 15, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12, 24].map((h) => h * HOUR),
];

/** The span of one slice, e.g. "30 s", "2 min", "1 h". */
export function bucketSpan(ms: number): string {
  if (ms < MINUTE) return `${Math.round(ms / SECOND)} s`;
  if (ms < HOUR) return `${Math.round(ms / MINUTE)} min`;
  return `${Number((ms / HOUR).toFixed(1))} h`;
}

/** What a slice covers; a point of the all-agents charts carries it for its tooltip. */
interface Bucket {
  /** First and last millisecond of the slice (run clock). */
  from: number;
  to: number;
  /** Calls in the slice, and of how many agents; 0 calls: a gap in the lines. */
  calls: number;
  agents: number;
}

/** A slice on the rate chart: the hit rates of its calls' summed tokens, and their reuse weighted by prompt bytes (the engine's definitions). */
interface BucketRate extends Bucket {
  /** The middle of the slice. */
  at: number;
  hitProvider: number | null;
  hitModel: number | null;
  reuse: number | null;
}

/** A slice on the tokens chart: the mean prompt tokens per call (one call per turn), by cache outcome and source. */
interface BucketTokens extends Bucket, TokenSplit {
  at: number;
}

export interface BucketChartData {
  rates: BucketRate[];
  tokens: BucketTokens[];
  markers: ChartMarker[];
  hasProvider: boolean;
  hasModel: boolean;
  /** The width of a slice in milliseconds. */
  width: number;
}

/** Local time offset, so hour-wide slices start on the local hour like the axis labels. */
const localOffset = (at: number) => new Date(at).getTimezoneOffset() * MINUTE;

/** The narrowest round width that fits `first`..`last` into at most `limit` slices. */
export function bucketWidth(first: number, last: number, limit = overallBucketLimit): number {
  const off = localOffset(first);
  const count = (w: number) => Math.floor((last - off) / w) - Math.floor((first - off) / w) + 1;
  for (const w of bucketWidths) if (count(w) <= limit) return w;
  // Beyond a day a slice: not round, just fitting.
  return Math.ceil((last - first + 1) / Math.max(1, limit - 1));
}

interface Acc {
  calls: number;
  agents: Set<string>;
  /** Provider: calls, cache read / write / uncached summed. */
  nP: number;
  readP: number;
  writeP: number;
  inP: number;
  /** Cache model (a replay's figures of record, or the estimate beside a provider call): for the hit rate. */
  nHitM: number;
  hitInM: number;
  hitReadM: number;
  hitWriteM: number;
  /** Cache-model calls of record (`modeled`): for the stacked tokens, like the per-call chart. */
  nM: number;
  readM: number;
  writeM: number;
  inM: number;
  /** Prompt bytes shared with the previous prompt, and prompt bytes, of the calls with a known prompt. */
  reusedBytes: number;
  promptBytes: number;
  nReuse: number;
}

const acc = (): Acc => ({ calls: 0, agents: new Set(), nP: 0, readP: 0, writeP: 0, inP: 0, nHitM: 0, hitInM: 0, hitReadM: 0, hitWriteM: 0, nM: 0, readM: 0, writeM: 0, inM: 0, reusedBytes: 0, promptBytes: 0, nReuse: 0 });

/**
 * The all-agents series: `points` (oldest first) in slices of a round width, every slice from the
 * first call's to the last call's (an empty one has null figures: no point), with the markers of every agent in view.
 */
export function buildBucketData(points: CallPoint[], byAgent: Record<string, CallPoint[]>, markers: Record<string, GenerationMarker[]>, limit = overallBucketLimit): BucketChartData {
  const first = points[0]?.at;
  const last = points.at(-1)?.at;
  if (first === undefined || last === undefined) return { rates: [], tokens: [], markers: [], hasProvider: false, hasModel: false, width: bucketWidths[0] as number };
  const width = bucketWidth(first, last, limit);
  const off = localOffset(first);
  const start = Math.floor((first - off) / width) * width + off;
  const slices: Acc[] = Array.from({ length: Math.floor((last - start) / width) + 1 }, acc);
  let hasProvider = false;
  let hasModel = false;
  for (const p of points) {
    const a = slices[Math.min(slices.length - 1, Math.max(0, Math.floor((p.at - start) / width)))] as Acc;
    a.calls++;
    a.agents.add(p.agentId);
    const provider = p.modeled ? undefined : p.usage;
    const model = p.modeled ? p.usage : p.modeledUsage;
    if (provider) {
      hasProvider = true;
      a.nP++;
      a.readP += provider.cacheRead;
      a.writeP += provider.cacheWrite;
      a.inP += provider.input;
    }
    if (model) {
      hasModel = true;
      a.nHitM++;
      a.hitInM += model.input;
      a.hitReadM += model.cacheRead;
      a.hitWriteM += model.cacheWrite;
    }
    if (p.modeled) {
      a.nM++;
      a.readM += p.usage.cacheRead;
      a.writeM += p.usage.cacheWrite;
      a.inM += p.usage.input;
    }
    if (p.reuseBytes) {
      // Byte-weighted, like an agent's reuse (SPEC [agent-reuse-def]); a recorded call without a known prompt stays out.
      a.reusedBytes += p.reuseBytes.reused;
      a.promptBytes += p.reuseBytes.prompt;
      a.nReuse++;
    }
  }
  const rates: BucketRate[] = new Array(slices.length);
  const tokens: BucketTokens[] = new Array(slices.length);
  slices.forEach((a, i) => {
    const from = start + i * width;
    const b: Bucket = { from, to: from + width - 1, calls: a.calls, agents: a.agents.size };
    const at = from + width / 2;
    const mean = (sum: number, n: number) => (n > 0 ? sum / n : null);
    rates[i] = {
      ...b,
      at,
      // Each the engine's definition over the slice's summed calls (SPEC [hit-rate-def], [agent-reuse-def]).
      hitProvider: a.nP > 0 ? cacheHitRate({ input: a.inP, cacheRead: a.readP, cacheWrite: a.writeP }) : null,
      hitModel: a.nHitM > 0 ? cacheHitRate({ input: a.hitInM, cacheRead: a.hitReadM, cacheWrite: a.hitWriteM }) : null,
      reuse: a.nReuse > 0 ? reuseRatio(a.reusedBytes, a.promptBytes) : null,
    };
    tokens[i] = { ...b, at, readP: mean(a.readP, a.nP), writeP: mean(a.writeP, a.nP), uncachedP: mean(a.inP, a.nP), readM: mean(a.readM, a.nM), writeM: mean(a.writeM, a.nM), uncachedM: mean(a.inM, a.nM) };
  });
  return { rates, tokens, markers: chartMarkers(points, byAgent, markers, 'all'), hasProvider, hasModel, width };
}
