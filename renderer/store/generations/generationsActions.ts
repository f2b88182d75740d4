import type { GenerationDiffDto, GenerationDto, GenerationSummaryDto } from '../../../engine/contract';

/** The parts of the inspector that load on their own. */
type GenerationPart = 'list' | 'detail' | 'diff';

/** Actions of the generations slice: the selected agent's generations, the one inspected, and a diff of two. */
export type GenerationsAction =
  | { type: 'generations.loading'; agentId: string; part: GenerationPart }
  | { type: 'generations.failed'; agentId: string; part: GenerationPart; message: string }
  | { type: 'generations.list'; agentId: string; generations: GenerationSummaryDto[] }
  | { type: 'generation.detail'; detail: GenerationDto }
  | { type: 'generation.view'; number: number | null }
  | { type: 'generation.diffPick'; from: number; to: number }
  | { type: 'generation.diff'; diff: GenerationDiffDto };
