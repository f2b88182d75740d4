import type { ContextItem } from '../items/ContextItem';
import { isStableKind } from '../items/tiers';
import type { Layer } from './Layer';

/**
 * The layer an item belongs to at a boundary (spec "Prompt cache layers"): L1 holds the
 * session-stable objective, task, acceptance, constraints, pinned items and architecture memory;
 * everything else packed is L2. L0 (role instructions) and L3 (input and status) are not items.
 */
export function layerOf(item: ContextItem): Exclude<Layer, 'L0' | 'L3'> {
  if (item.pinned || isStableKind(item)) return 'L1';
  if (item.kind === 'architecture' && item.class === 'project_memory') return 'L1';
  return 'L2';
}
