import type { TraceDto } from '../../../engine/contract';

/** Actions of the traces slice: the `listTraces` snapshot and an import this view made. */
export type TracesAction =
  | { type: 'traces.loading' }
  | { type: 'traces.snapshot'; traces: TraceDto[] }
  | { type: 'traces.importing'; name: string }
  | { type: 'traces.imported'; trace: TraceDto; alreadyImported: boolean }
  | { type: 'traces.error'; message: string }
  | { type: 'traces.removing'; traceId: string }
  | { type: 'traces.removed'; traceId: string };
