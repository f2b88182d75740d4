import type { TraceDto } from '../../../engine/contract';
import type { RootState } from '../reduce';

/** Imported traces, newest first. */
export const selectTraces = (s: RootState): TraceDto[] => s.traces.list;
export const selectTracesState = (s: RootState) => s.traces;
