import type { CompressedEntry, DroppedEntry, IncludedEntry } from '../pack/entries';
import type { Layer } from '../prompt/Layer';
import type { Indicators } from '../refresh/indicators';

// Defined by the packer and the prompt, which make them; named here too for the many readers of a generation.
export type { CompressedEntry, DroppedEntry, IncludedEntry, Layer };
export { DROPPED_KEPT } from '../pack/DroppedLog';

/** How a generation began. */
export interface Boundary {
  kind: 'start' | 'rebuild' | 'refresh';
  reason: string;
}

/**
 * A snapshot of what an agent was actually given in one generation (spec "Context generations").
 * Updated by every build of the generation (appends only) and kept after the generation ends,
 * so every generation stays inspectable.
 */
export interface Generation {
  agentId: string;
  number: number;
  phase: string;
  strategy: string;
  budget: number;
  /** Prompt tokens of the latest build, by layer (L3 at its reserve); the whole is `generationTokens`. */
  layerTokens: Record<Layer, number>;
  included: IncludedEntry[];
  /**
   * What was left out and why: near misses first. Every generation, the current one too, keeps
   * its first `DROPPED_KEPT` entries (`droppedTotal` keeps the count), so a long run's memory does
   * not grow with pool size, builds or generations.
   */
  dropped: DroppedEntry[];
  droppedTotal: number;
  compressed: CompressedEntry[];
  boundary: Boundary;
  builds: number;
  /** SHA-256 of the static part (L0+L1) of this generation's prompts. */
  prefixHash: string;
  startedAt: number;
  /** Indicators of the latest build (`[indicators-recorded]`). */
  indicators: Indicators;
  /**
   * Set on a generation older than the newest `RECENT_FULL_GENERATIONS` of its agent: its
   * included and compressed entries were released from memory (`[bounded-history]`); the workspace
   * catalog stored them when it was built. Counts, tokens, boundary and indicators remain.
   */
  released?: { included: number; compressed: number };
}

/** A generation's prompt tokens, all layers (L3 at its reserve): derived from `layerTokens`, never stored beside it. */
export const generationTokens = (g: Pick<Generation, 'layerTokens'>): number => g.layerTokens.L0 + g.layerTokens.L1 + g.layerTokens.L2 + g.layerTokens.L3;

/** Tokens over the budget forced by pinned/mandatory content; 0 when it fits (`[overflow-recorded]`). */
export const generationOverflow = (g: Pick<Generation, 'layerTokens' | 'budget'>): number => Math.max(0, generationTokens(g) - g.budget);
