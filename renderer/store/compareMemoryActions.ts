import type { ComparisonDto, ItemDto, MemoryEntryDto, SkillsDto, TraceDto } from '../../engine/contract';
import type { ComparisonsState } from './comparisonsSlice';
import type { PurgeReport } from './memorySlice';

/** Actions of the Compare, Memory and Skills views (traces, comparisons, memory, skills slices). */
export type CompareMemoryAction =
  | { type: 'traces.loading' }
  | { type: 'traces.snapshot'; traces: TraceDto[] }
  | { type: 'traces.importing'; name: string }
  | { type: 'traces.imported'; trace: TraceDto; alreadyImported: boolean }
  | { type: 'traces.error'; message: string }
  | { type: 'compare.form'; form: Partial<ComparisonsState['form']> }
  | { type: 'compare.addTrace'; traceId: string }
  | { type: 'compare.chartTrace'; traceId: string | null }
  | { type: 'compare.starting' }
  | { type: 'compare.loaded'; comparison: ComparisonDto; current?: boolean }
  | { type: 'compare.error'; message: string }
  | { type: 'memory.loading' }
  | { type: 'memory.snapshot'; entries: MemoryEntryDto[] }
  | { type: 'memory.changing'; id: string }
  | { type: 'memory.entry'; entry: MemoryEntryDto }
  | { type: 'memory.entryError'; id: string; code: string; message: string }
  | { type: 'memory.error'; message: string }
  | { type: 'memory.purging' }
  | { type: 'memory.purged'; report: PurgeReport }
  | { type: 'memory.dismissReport' }
  | { type: 'memory.candidates'; agentId: string; items: ItemDto[]; error?: string }
  | { type: 'skills.loading' }
  | { type: 'skills.snapshot'; skills: SkillsDto }
  | { type: 'skills.error'; message: string };
