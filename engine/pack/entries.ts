/** What a pack decided for each item: included (where, why), dropped (why), compressed (how). */
import type { ContextItem } from '../items/ContextItem';
import type { Tier } from '../items/tiers';
import type { Layer } from '../prompt/Layer';

/** An item as it was injected: the item (clipped or compressed content when it was), where, why. */
export interface IncludedEntry {
  item: ContextItem;
  layer: Exclude<Layer, 'L0'>;
  tokens: number;
  score: number;
  tier: Tier;
  /** Why it is in this context, in words the inspector shows. */
  why: string;
}

export interface DroppedEntry {
  item: ContextItem;
  tokens: number;
  /** Why it is not in this context; every exclusion has one (`[exclusion-reasons]`). */
  reason: string;
  /** Its score, when it was scored before being left out. */
  score?: number;
}

export interface CompressedEntry {
  itemId: string;
  from: number;
  to: number;
  method: 'clip' | 'extract';
}
