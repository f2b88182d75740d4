import type { ItemDto, MemoryEntryDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { LoadStatus } from '../loadStatus';
import type { PurgeReport } from './memoryActions';

export interface MemoryState {
  /** Entries, newest first as the host lists them; an entry is replaced only by a newer revision. */
  entries: MemoryEntryDto[];
  status: LoadStatus;
  error: string | null;
  /** The last failed change of one entry (a revision conflict, say), shown by that entry. */
  entryError: { id: string; code: string; message: string } | null;
  /** Entries with a change in flight. */
  busy: Record<string, true>;
  /** What the last purge did and what it cannot promise. */
  purgeReport: PurgeReport | null;
  purging: boolean;
  /** Items of an agent's current generation that could become memory ("candidates from this run"). */
  candidates: { agentId: string; items: ItemDto[]; error: string | null } | null;
}

export const memoryInitialState: MemoryState = { entries: [], status: 'idle', error: null, entryError: null, busy: {}, purgeReport: null, purging: false, candidates: null };

function upsert(state: MemoryState, entry: MemoryEntryDto): MemoryState {
  const i = state.entries.findIndex((e) => e.id === entry.id);
  if (i === -1) return { ...state, entries: [entry, ...state.entries] };
  if ((state.entries[i] as MemoryEntryDto).revision > entry.revision) return state;
  const entries = [...state.entries];
  entries[i] = entry;
  return { ...state, entries };
}

const without = (busy: Record<string, true>, id: string): Record<string, true> => {
  const next = { ...busy };
  delete next[id];
  return next;
};

/** Project memory: the `listMemory` snapshot, the results of changes, and `memory.changed` events. */
export function reduceMemory(state: MemoryState, action: Action): MemoryState {
  switch (action.type) {
    case 'memory.loading':
      return { ...state, status: 'loading', error: null };
    case 'memory.snapshot': {
      // Keep the newer revision when a live event crossed the snapshot on the wire.
      const known = new Map(state.entries.map((e) => [e.id, e]));
      const entries = action.entries.map((e) => {
        const k = known.get(e.id);
        return k && k.revision > e.revision ? k : e;
      });
      return { ...state, status: 'ready', entries };
    }
    case 'memory.changing':
      return { ...state, busy: { ...state.busy, [action.id]: true }, entryError: state.entryError?.id === action.id ? null : state.entryError };
    case 'memory.entry':
      // A promotion was busy under its item's id.
      return { ...upsert(state, action.entry), busy: without(without(state.busy, action.entry.id), action.entry.provenance.itemId ?? '') };
    case 'memory.entryError':
      return { ...state, busy: without(state.busy, action.id), entryError: { id: action.id, code: action.code, message: action.message } };
    case 'memory.error':
      return { ...state, status: state.status === 'loading' ? 'failed' : state.status, purging: false, error: action.message };
    case 'memory.purging':
      return { ...state, purging: true, error: null, purgeReport: null };
    case 'memory.purged':
      return { ...state, purging: false, purgeReport: action.report };
    case 'memory.candidates':
      return { ...state, candidates: { agentId: action.agentId, items: action.items, error: action.error ?? null } };
    case 'memory.dismissReport':
      return state.purgeReport ? { ...state, purgeReport: null } : state;
    case 'event': {
      if (action.event.name !== 'memory.changed') return state;
      const { entry } = action.event.payload;
      // A purge names no entry: the controller lists memory again.
      return entry ? upsert(state, entry) : state;
    }
    default:
      return state;
  }
}
