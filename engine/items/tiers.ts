import type { ContextItem } from './ContextItem';

/**
 * Packing priority (spec "Building"; `[tiers]`):
 *   1 pinned items, user objective, task, acceptance, hard constraints
 *   2 relevant code, verified findings, recent failures
 *   3 architecture memory, parent reports
 *   4 historical / optional material
 */
export type Tier = 1 | 2 | 3 | 4;

export function tierOf(item: ContextItem): Tier {
  if (item.pinned || item.mandatory) return 1;
  switch (item.kind) {
    case 'objective':
    case 'task':
    case 'acceptance':
    case 'constraint':
      return 1;
    case 'code':
    case 'failure':
      return 2;
    case 'finding':
    case 'decision':
      return item.provenance.verified ? 2 : 4;
    case 'architecture':
    case 'report':
      return 3;
    default:
      return item.provenance.source === 'test_result' ? 2 : 4;
  }
}

/** Tier 1 kinds are session-stable and belong to the L1 prompt layer. */
export const isStableKind = (item: ContextItem): boolean =>
  item.kind === 'objective' || item.kind === 'task' || item.kind === 'acceptance' || item.kind === 'constraint';
