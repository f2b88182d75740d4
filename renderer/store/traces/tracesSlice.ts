import type { TraceDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { LoadStatus } from '../loadStatus';

export interface TracesState {
  /** Imported traces, newest first (the host's order), no duplicate id. */
  list: TraceDto[];
  status: LoadStatus;
  /** An import in flight (by file picker or drop). */
  importing: string | null;
  /** The last import's outcome, for the notice under the picker. */
  lastImport: { traceId: string; name: string; alreadyImported: boolean } | null;
  error: string | null;
  /** A removal in flight (`removeTrace`). */
  removing: string | null;
}

export const tracesInitialState: TracesState = { list: [], status: 'idle', importing: null, lastImport: null, error: null, removing: null };

const without = (state: TracesState, traceId: string): TracesState => ({
  ...state,
  removing: state.removing === traceId ? null : state.removing,
  list: state.list.filter((t) => t.id !== traceId),
  lastImport: state.lastImport?.traceId === traceId ? null : state.lastImport,
});

const upsert = (list: TraceDto[], trace: TraceDto): TraceDto[] => [trace, ...list.filter((t) => t.id !== trace.id)];

/** Imported traces: the `listTraces` snapshot, imports and removals this view made, and `trace.imported` and `trace.removed` events. */
export function reduceTraces(state: TracesState, action: Action): TracesState {
  switch (action.type) {
    case 'traces.loading':
      return { ...state, status: 'loading', error: null };
    case 'traces.snapshot': {
      // A trace announced while the list was in flight stays.
      const known = new Set(action.traces.map((t) => t.id));
      const extra = state.list.filter((t) => !known.has(t.id));
      return { ...state, status: 'ready', list: [...extra, ...action.traces] };
    }
    case 'traces.importing':
      return { ...state, importing: action.name, error: null, lastImport: null };
    case 'traces.imported':
      return {
        ...state,
        importing: null,
        list: state.list.some((t) => t.id === action.trace.id) ? state.list : upsert(state.list, action.trace),
        lastImport: { traceId: action.trace.id, name: action.trace.name, alreadyImported: action.alreadyImported },
      };
    case 'traces.removing':
      return { ...state, removing: action.traceId, error: null };
    case 'traces.removed':
      return without(state, action.traceId);
    case 'traces.error':
      return { ...state, importing: null, removing: null, status: state.status === 'loading' ? 'failed' : state.status, error: action.message };
    case 'event': {
      if (action.event.name === 'trace.removed') {
        const { traceId } = action.event.payload;
        return state.list.some((t) => t.id === traceId) ? without(state, traceId) : state;
      }
      if (action.event.name !== 'trace.imported') return state;
      const { trace } = action.event.payload;
      return state.list.some((t) => t.id === trace.id) ? state : { ...state, list: upsert(state.list, trace) };
    }
    default:
      return state;
  }
}
