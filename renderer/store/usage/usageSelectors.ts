import { cacheHitRate } from '../../../engine/metrics/cacheHitRate';
import type { RootState } from '../reduce';
import type { CallPoint, GenerationMarker } from './usageSlice';

/** One call on the rate chart; `null` where the call has no such figure (lines skip it). */
export interface RatePoint {
  at: number;
  agentId: string;
  turn: number;
  generation: number;
  /** Cache hit rate from the provider's own usage figures. */
  hitProvider: number | null;
  /** Cache hit rate from the provider cache model (a replay's figures, or the estimate beside a provider's). */
  hitModel: number | null;
  /** Prefix reuse measured on the prompt bytes (DESIGN.md Metrics); null where the prompt is not known (a gap in the line). */
  reuse: number | null;
}

/** Prompt tokens split by cache outcome, per source (`…P` provider, `…M` cache model); null where that source has no figure. */
export interface TokenSplit {
  readP: number | null;
  writeP: number | null;
  uncachedP: number | null;
  readM: number | null;
  writeM: number | null;
  uncachedM: number | null;
}

/** One call's prompt tokens by cache outcome. */
export interface TokenPoint extends TokenSplit {
  at: number;
  agentId: string;
  turn: number;
}

export interface ChartMarker {
  at: number;
  agentId: string;
  generation: number;
  kind: GenerationMarker['kind'];
  reason: string;
}

export interface ChartData {
  rates: RatePoint[];
  tokens: TokenPoint[];
  markers: ChartMarker[];
  /** Whether any call in view carries provider figures / cache-model figures. */
  hasProvider: boolean;
  hasModel: boolean;
}

/** Markers drawn at most in the overall chart (the newest), so 200 agents do not paint it over. */
export const overallMarkerLimit = 30;

const EMPTY: CallPoint[] = [];
const NO_MARKERS: Record<string, GenerationMarker[]> = {};

/** The calls of one agent (stable identity until that agent's window changes). */
export const selectAgentCalls = (s: RootState, agentId: string | null): CallPoint[] => (agentId ? (s.usage.byAgent[agentId] ?? EMPTY) : EMPTY);
/** The newest calls of all agents. */
export const selectOverallCalls = (s: RootState): CallPoint[] => s.usage.overall;
export const selectUsageByAgent = (s: RootState): Record<string, CallPoint[]> => s.usage.byAgent;
export const selectMarkers = (s: RootState): Record<string, GenerationMarker[]> => s.usage.markers ?? NO_MARKERS;
export const selectUsageLoading = (s: RootState, agentId: string | null): boolean => (agentId ? Boolean(s.usage.loading[agentId]) : false);


/**
 * Where a generation boundary goes on the time axis: at the first call of the new generation, or
 * after the agent's newest call while the new generation has taken none. `undefined` when it lies
 * before the agent's window.
 */
export function markerTime(points: CallPoint[], m: GenerationMarker): number | undefined {
  const i = points.findIndex((p) => p.generation >= m.generation);
  if (i > 0) return (points[i] as CallPoint).at;
  if (i === 0) return (points[0] as CallPoint).generation === m.generation && points.length > 0 ? (points[0] as CallPoint).at : undefined;
  return points.at(-1)?.at;
}

/** Chart series for `points` (one agent's or all agents'), with the markers of the agents in view. */
export function buildChartData(points: CallPoint[], byAgent: Record<string, CallPoint[]>, markers: Record<string, GenerationMarker[]>, agentIds: string[] | 'all'): ChartData {
  const rates: RatePoint[] = new Array(points.length);
  const tokens: TokenPoint[] = new Array(points.length);
  let hasProvider = false;
  let hasModel = false;
  points.forEach((p, i) => {
    const provider = p.modeled ? undefined : p.usage;
    const model = p.modeled ? p.usage : p.modeledUsage;
    if (provider) hasProvider = true;
    if (model) hasModel = true;
    rates[i] = { at: p.at, agentId: p.agentId, turn: p.turn, generation: p.generation, hitProvider: provider ? p.hitRate : null, hitModel: model ? (p.modeled ? p.hitRate : cacheHitRate(model)) : null, reuse: p.prefixReuse };
    tokens[i] = {
      at: p.at,
      agentId: p.agentId,
      turn: p.turn,
      readP: provider ? provider.cacheRead : null,
      writeP: provider ? provider.cacheWrite : null,
      uncachedP: provider ? provider.input : null,
      // A provider call's estimate is drawn on the rate chart only; the stacked tokens are the figures of record.
      readM: p.modeled ? p.usage.cacheRead : null,
      writeM: p.modeled ? p.usage.cacheWrite : null,
      uncachedM: p.modeled ? p.usage.input : null,
    };
  });
  return { rates, tokens, markers: chartMarkers(points, byAgent, markers, agentIds), hasProvider, hasModel };
}

/** The generation boundaries of the agents in view that fall within the time span of `points`, oldest first (overall: the newest only). */
export function chartMarkers(points: CallPoint[], byAgent: Record<string, CallPoint[]>, markers: Record<string, GenerationMarker[]>, agentIds: string[] | 'all'): ChartMarker[] {
  const first = points[0]?.at;
  const last = points.at(-1)?.at;
  const out: ChartMarker[] = [];
  if (first !== undefined && last !== undefined) {
    const ids = agentIds === 'all' ? Object.keys(markers) : agentIds;
    for (const id of ids) {
      for (const m of markers[id] ?? []) {
        const at = markerTime(byAgent[id] ?? EMPTY, m);
        if (at !== undefined && at >= first && at <= last) out.push({ at, agentId: id, generation: m.generation, kind: m.kind, reason: m.reason });
      }
    }
    out.sort((a, b) => a.at - b.at);
  }
  return agentIds === 'all' ? out.slice(-overallMarkerLimit) : out;
}
