import type { GenerationDiffDto, GenerationDto, GenerationSummaryDto, ItemDto, StrataEvent } from '../../../engine/contract';
import type { Action } from '../actions';
import { shareEqual } from '../shareEqual';

/** Where a request for a part of the inspector stands. */
type PartStatus = 'idle' | 'loading' | 'ready' | 'error';

interface Loadable<T> {
  status: PartStatus;
  value: T;
  error: string | null;
}

/** A generation boundary as the timeline shows it: the host's line when it announced one. */
interface BoundaryNote {
  generation: number;
  previous: number | null;
  kind: 'start' | 'rebuild' | 'refresh';
  reason: string;
  text: string;
}

/**
 * The generations of the selected agent: the list, the one being inspected, a diff of two, and
 * the boundary lines the host announced. Everything belongs to `agentId`; selecting another
 * agent starts over, and a response for another agent (a late answer) is ignored.
 */
export interface GenerationsState {
  agentId: string | null;
  list: Loadable<GenerationSummaryDto[]>;
  /** The generation number the operator picked; null follows the current one. */
  viewed: number | null;
  detail: Loadable<GenerationDto | null>;
  diffPick: { from: number; to: number } | null;
  diff: Loadable<GenerationDiffDto | null>;
  /** `generation.started` lines of this agent, by generation number. */
  notes: Record<number, BoundaryNote>;
  /** Items removed from the pool since the detail loaded. */
  removed: Record<string, true>;
}

const idle = <T>(value: T): Loadable<T> => ({ status: 'idle', value, error: null });

export const generationsInitialState: GenerationsState = {
  agentId: null,
  list: idle([]),
  viewed: null,
  detail: idle(null),
  diffPick: null,
  diff: idle(null),
  notes: {},
  removed: {},
};

/** The operator-facing line for a new generation, as the engine writes it (`[refresh-text]`). */
export const refreshLine = (from: number, to: number, reason: string): string => `Context refreshed · Generation ${from} → ${to} · Reason: ${reason}`;

const forAgent = (state: GenerationsState, agentId: string) => state.agentId === agentId;

/** Entries of a generation match across reloads by their item (included, dropped) or item id (compressed). */
const entryKey = (v: unknown): string | undefined => {
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as { item?: { id?: unknown }; itemId?: unknown };
  const id = e.item?.id ?? e.itemId;
  return typeof id === 'string' ? id : undefined;
};

export function reduceGenerations(state: GenerationsState, action: Action): GenerationsState {
  switch (action.type) {
    case 'agent.select':
      return action.agentId === state.agentId ? state : { ...generationsInitialState, agentId: action.agentId };
    case 'run.begun':
      // The same id in the new run is another agent: its generations are loaded afresh.
      return state.agentId !== null && action.agentIds.includes(state.agentId) ? { ...generationsInitialState, agentId: state.agentId } : state;
    case 'generations.loading': {
      if (!forAgent(state, action.agentId)) return state;
      const mark = <T>(l: Loadable<T>): Loadable<T> => ({ ...l, status: 'loading', error: null });
      return action.part === 'list' ? { ...state, list: mark(state.list) } : action.part === 'detail' ? { ...state, detail: mark(state.detail) } : { ...state, diff: mark(state.diff) };
    }
    case 'generations.failed': {
      if (!forAgent(state, action.agentId)) return state;
      const fail = <T>(l: Loadable<T>): Loadable<T> => ({ ...l, status: 'error', error: action.message });
      return action.part === 'list' ? { ...state, list: fail(state.list) } : action.part === 'detail' ? { ...state, detail: fail(state.detail) } : { ...state, diff: fail(state.diff) };
    }
    case 'generations.list':
      if (!forAgent(state, action.agentId)) return state;
      // The selected agent's list and detail reload every turn: unchanged parts keep their identity.
      return { ...state, list: { status: 'ready', value: shareEqual(state.list.value, [...action.generations].sort((a, b) => a.number - b.number)), error: null } };
    case 'generation.detail':
      if (!forAgent(state, action.detail.agentId)) return state;
      return {
        ...state,
        detail: { status: 'ready', value: shareEqual(state.detail.value, action.detail, entryKey), error: null },
        removed: Object.keys(state.removed).length === 0 ? state.removed : {},
      };
    case 'generation.view':
      return state.viewed === action.number ? state : { ...state, viewed: action.number };
    case 'generation.diffPick':
      return { ...state, diffPick: { from: action.from, to: action.to }, diff: { ...state.diff, value: null, status: 'idle', error: null } };
    case 'generation.diff':
      if (!forAgent(state, action.diff.agentId)) return state;
      if (state.diffPick && (state.diffPick.from !== action.diff.from || state.diffPick.to !== action.diff.to)) return state;
      return { ...state, diff: { status: 'ready', value: action.diff, error: null } };
    case 'event':
      return reduceEvent(state, action.event);
    default:
      return state;
  }
}

function reduceEvent(state: GenerationsState, event: StrataEvent): GenerationsState {
  if (event.name === 'generation.started') {
    const p = event.payload;
    if (!forAgent(state, p.agentId)) return state;
    const note: BoundaryNote = { generation: p.generation, previous: p.previous, kind: p.boundary.kind, reason: p.boundary.reason, text: p.text };
    return { ...state, notes: { ...state.notes, [p.generation]: note } };
  }
  if (event.name === 'item.changed') {
    const { itemId, item, change } = event.payload;
    const detail = state.detail.value;
    if (!detail) return state;
    if (change === 'removed' || !item) {
      if (!holds(detail, itemId)) return state;
      return { ...state, removed: { ...state.removed, [itemId]: true } };
    }
    if (!holds(detail, itemId)) return state;
    return { ...state, detail: { ...state.detail, value: withItem(detail, item) } };
  }
  return state;
}

const holds = (d: GenerationDto, itemId: string) => d.included.some((e) => e.item.id === itemId) || d.dropped.some((e) => e.item.id === itemId);

/** The generation with every copy of `item` replaced (pinned, verified… changed in the pool). */
function withItem(d: GenerationDto, item: ItemDto): GenerationDto {
  return {
    ...d,
    included: d.included.map((e) => (e.item.id === item.id ? { ...e, item } : e)),
    dropped: d.dropped.map((e) => (e.item.id === item.id ? { ...e, item } : e)),
  };
}
