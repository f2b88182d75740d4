import { compressText } from '../compress/compressText';
import { extractSignals } from '../compress/extractSignals';
import type { ContextItem } from '../items/ContextItem';
import type { ItemInput } from '../items/createItem';

/** Token target of the carried state's content. */
export const CARRIED_STATE_TOKENS = 400;

export interface CarryInput {
  agentId: string;
  taskId: string;
  /** The generation the state is carried from. */
  generation: number;
  /** The agent's transient items the refresh drops, in pool order. */
  transient: readonly ContextItem[];
  countTokens: (text: string) => number;
}

/**
 * The first step of `[refresh-pipeline]`: the durable state of a generation's transient material
 * (failures, decisions, verification, risks, paths, symbols) as one new `generated_summary`
 * task-state item (`[sources-distinct]`: the dropped items are archived as they were, never
 * rewritten). Undefined when there is nothing to carry. Without `at`: the Engine stamps it with its
 * clock when it adds the item, and adds none when an item of the same id is in the pool already.
 */
export function carriedState(i: CarryInput): Omit<ItemInput, 'at'> | undefined {
  if (i.transient.length === 0) return undefined;
  const sig = extractSignals(i.transient.map((t) => t.content).join('\n'));
  const lines = [
    ...sig.failures.map((l) => `failure: ${l}`),
    ...sig.decisions.map((l) => `decision: ${l}`),
    ...sig.verification.map((l) => `verified by: ${l}`),
    ...sig.risks.map((l) => `risk: ${l}`),
  ];
  if (sig.paths.length) lines.push(`paths: ${sig.paths.join(', ')}`);
  if (sig.symbols.length) lines.push(`symbols: ${sig.symbols.join(', ')}`);
  if (lines.length === 0) return undefined;
  return {
    id: `state:${i.agentId}:g${i.generation}`,
    kind: 'note',
    class: 'task_state',
    title: `State carried from generation ${i.generation}`,
    content: compressText(lines.join('\n'), CARRIED_STATE_TOKENS, i.countTokens).text,
    source: 'generated_summary',
    agentId: i.agentId,
    taskId: i.taskId,
    confidence: 0.6,
    relevance: 0.8,
    durability: 'task',
    files: sig.paths,
    symbols: sig.symbols,
  };
}
