import type { GenerationDiffDto, GenerationDto, GenerationSummaryDto, RunDto, AgentStatus } from '../../engine/contract';

/** The parts of the inspector that load on their own. */
export type GenerationPart = 'list' | 'detail' | 'diff';

/** Actions of the agent view: generations of the selected agent, runs, control outcomes, tree status filter. */
export type AgentViewAction =
  | { type: 'generations.loading'; agentId: string; part: GenerationPart }
  | { type: 'generations.failed'; agentId: string; part: GenerationPart; message: string }
  | { type: 'generations.list'; agentId: string; generations: GenerationSummaryDto[] }
  | { type: 'generation.detail'; detail: GenerationDto }
  | { type: 'generation.view'; number: number | null }
  | { type: 'generation.diffPick'; from: number; to: number }
  | { type: 'generation.diff'; diff: GenerationDiffDto }
  | { type: 'runs.list'; runs: RunDto[] }
  | { type: 'run.result'; run: RunDto }
  | { type: 'control.pending'; key: string; label: string }
  | { type: 'control.done'; key: string; label: string; message: string }
  | { type: 'control.failed'; key: string; label: string; message: string }
  | { type: 'control.dismiss'; key: string }
  | { type: 'tree.statusFilter'; statuses: AgentStatus[] };
