import type { ContextItem, InfoClass } from './ContextItem';

/**
 * What a refresh does to each class (spec "Information classes"; `[class-survival]`):
 * ephemeral is dropped aggressively, task state and findings carry into the next generation,
 * project memory is durable (bounded, scored), raw history is kept for observability only and is
 * never packed by the default strategy.
 */
export const survivesRefresh: Record<InfoClass, boolean> = {
  ephemeral: false,
  task_state: true,
  finding: true,
  project_memory: true,
  raw_history: false,
};

/** True when an item stays in the pool across a refresh. Pinned items always do. */
export function keepsAcrossRefresh(item: ContextItem): boolean {
  return item.pinned || item.mandatory || survivesRefresh[item.class];
}
