import type { CallDto, UsageDto, UsageTotals } from '../../../engine/contract';
import type { Action } from '../actions';

/**
 * One provider call as the charts plot it: the figures of record (`usage`: the provider's, or the
 * cache model's when `modeled`), and for a provider call the cache model's estimate beside them.
 */
export interface CallPoint {
  agentId: string;
  turn: number;
  generation: number;
  /** Milliseconds since the epoch (the run's clock). */
  at: number;
  usage: UsageTotals;
  modeled: boolean;
  modeledUsage: UsageTotals | undefined;
  hitRate: number;
  /** Null for a recorded call of an attached session: its prompt text is not known. */
  prefixReuse: number | null;
  /** The bytes behind `prefixReuse` (null as it), so a slice of calls weights reuse by bytes. */
  reuseBytes: { reused: number; prompt: number } | null;
}

/** A generation boundary to mark on the time axis (`refresh`: a context-limit or operator refresh). */
export interface GenerationMarker {
  agentId: string;
  generation: number;
  kind: 'refresh' | 'generation';
  reason: string;
}

export interface UsageState {
  /** The newest calls per agent, oldest first, at most `usageWindow` each. */
  byAgent: Record<string, CallPoint[]>;
  /** The newest calls of all agents, oldest first, at most `usageWindow`. */
  overall: CallPoint[];
  /** Generation boundaries per agent, oldest first, at most `markerWindow` each. */
  markers: Record<string, GenerationMarker[]>;
  /** Agents whose `getUsage` backfill is in flight. */
  loading: Record<string, true>;
}

/** Points kept per agent and overall, so memory and rendering stay bounded however long the run. */
export const usageWindow = 500;
export const markerWindow = 100;

export const usageInitialState: UsageState = { byAgent: {}, overall: [], markers: {}, loading: {} };

export function toPoint(c: CallDto): CallPoint {
  return { agentId: c.agentId, turn: c.turn, generation: c.generation, at: c.at, usage: c.usage, modeled: c.modeled, modeledUsage: c.modeledUsage, hitRate: c.hitRate, prefixReuse: c.prefixReuse, reuseBytes: c.reuseBytes };
}

const keep = <T>(list: T[], n: number): T[] => (list.length > n ? list.slice(list.length - n) : list);
const key = (p: CallPoint) => `${p.agentId}\u0000${p.turn}\u0000${p.at}`;
const byTime = (a: CallPoint, b: CallPoint) => a.at - b.at || a.turn - b.turn;

/** True when `p` starts the agent's run over (the demo restarting): its clock and turn went back. */
const restarts = (last: CallPoint | undefined, p: CallPoint) => last !== undefined && p.turn < last.turn && p.at < last.at;

/**
 * Per call usage for the charts: live `usage.recorded` batches, the `getUsage` backfill, and the
 * generation boundaries from `generation.created` / `context.refreshed`. Windows are bounded.
 */
export function reduceUsage(state: UsageState, action: Action): UsageState {
  switch (action.type) {
    case 'usage.loading':
      return state.loading[action.agentId] ? state : { ...state, loading: { ...state.loading, [action.agentId]: true } };
    case 'usage.snapshot':
      return snapshot(state, action.usage);
    case 'usage.failed': {
      if (!state.loading[action.agentId]) return state;
      const loading = { ...state.loading };
      delete loading[action.agentId];
      return { ...state, loading };
    }
    case 'run.begun':
      return forget(state, new Set(action.agentIds));
    case 'event': {
      const e = action.event;
      if (e.name === 'usage.recorded') return record(state, e.payload.calls.map(toPoint));
      if (e.name === 'generation.created') return mark(state, e.payload.generations.filter((g) => g.previous !== null).map((g) => ({ agentId: g.agentId, generation: g.generation, kind: 'generation' as const, reason: g.reason })));
      if (e.name === 'context.refreshed') return mark(state, e.payload.refreshes.map((r) => ({ agentId: r.agentId, generation: r.to, kind: 'refresh' as const, reason: r.reason })));
      return state;
    }
    default:
      return state;
  }
}

function record(state: UsageState, points: CallPoint[]): UsageState {
  if (points.length === 0) return state;
  const byAgent = { ...state.byAgent };
  let markers = state.markers;
  let overall = state.overall;
  for (const p of points) {
    let list = byAgent[p.agentId] ?? [];
    if (restarts(list.at(-1), p)) {
      list = [];
      if (markers[p.agentId]) {
        markers = { ...markers };
        delete markers[p.agentId];
      }
      // A restart of the first agent means the whole run started over.
      if (p.turn === 1 && overall.length > 0 && p.at < (overall.at(-1) as CallPoint).at) overall = [];
    }
    byAgent[p.agentId] = keep([...list, p], usageWindow);
  }
  const merged = [...overall, ...points];
  // Batches arrive in order; sort only if one did not.
  if (merged.some((p, i) => i > 0 && byTime(merged[i - 1] as CallPoint, p) > 0)) merged.sort(byTime);
  return { ...state, byAgent, markers, overall: keep(merged, usageWindow) };
}

function snapshot(state: UsageState, usage: UsageDto): UsageState {
  const loading = { ...state.loading };
  delete loading[usage.agentId];
  const seen = new Map<string, CallPoint>();
  for (const p of usage.calls.map(toPoint)) seen.set(key(p), p);
  // Live calls that arrived while the snapshot was in flight are kept (same call, same key).
  for (const p of state.byAgent[usage.agentId] ?? []) seen.set(key(p), p);
  const list = keep([...seen.values()].sort(byTime), usageWindow);
  return { ...state, loading, byAgent: { ...state.byAgent, [usage.agentId]: list } };
}

function mark(state: UsageState, incoming: GenerationMarker[]): UsageState {
  if (incoming.length === 0) return state;
  const markers = { ...state.markers };
  for (const m of incoming) {
    const list = markers[m.agentId] ?? [];
    const same = list.findIndex((x) => x.generation === m.generation);
    if (same >= 0) {
      // A refresh also creates its generation: the refresh names it better.
      if (m.kind === 'refresh' && (list[same] as GenerationMarker).kind !== 'refresh') markers[m.agentId] = list.map((x, i) => (i === same ? m : x));
      continue;
    }
    markers[m.agentId] = keep([...list, m], markerWindow);
  }
  return { ...state, markers };
}

/** The state without the calls, boundaries and loads of the agents in `gone` (a run that started over). */
function forget(state: UsageState, gone: Set<string>): UsageState {
  const keepOf = <T>(m: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(m).filter(([id]) => !gone.has(id)));
  return { byAgent: keepOf(state.byAgent), overall: state.overall.filter((p) => !gone.has(p.agentId)), markers: keepOf(state.markers), loading: keepOf(state.loading) };
}
