import type { CommandResult, ItemDto, MemoryEntryDto } from '../../../engine/contract';

/** What a purge did and what it cannot promise, as `purgeMemory` answered. */
export type PurgeReport = CommandResult<'purgeMemory'>;

/** Actions of the memory slice: the `listMemory` snapshot, changes of one entry, a purge, and an agent's candidates. */
export type MemoryAction =
  | { type: 'memory.loading' }
  | { type: 'memory.snapshot'; entries: MemoryEntryDto[] }
  | { type: 'memory.changing'; id: string }
  | { type: 'memory.entry'; entry: MemoryEntryDto }
  | { type: 'memory.entryError'; id: string; code: string; message: string }
  | { type: 'memory.error'; message: string }
  | { type: 'memory.purging' }
  | { type: 'memory.purged'; report: PurgeReport }
  | { type: 'memory.dismissReport' }
  | { type: 'memory.candidates'; agentId: string; items: ItemDto[]; error?: string };
