import type { Boundary } from './generations/Generation';
import type { ContextItem } from './items/ContextItem';
import type { Indicators } from './refresh/indicators';

/** Every mutation of the Engine announces itself with one of these (`[engine-events]`). */
export type EngineEvent =
  | { type: 'item.added'; item: ContextItem }
  | { type: 'item.changed'; item: ContextItem; change: 'pinned' | 'unpinned' | 'verified' | 'promoted' }
  | { type: 'item.removed'; itemId: string }
  | {
      type: 'generation.started';
      agentId: string;
      generation: number;
      previous: number | null;
      boundary: Boundary;
      /** `Context refreshed · Generation 2 → 3 · Reason: …` for every generation after the first. */
      text: string;
    }
  | {
      type: 'generation.built';
      agentId: string;
      generation: number;
      builds: number;
      tokens: number;
      budget: number;
      overflow: number;
      /** Prefix reuse of this prompt against the agent's previous one (0 for the first). */
      reuse: number;
      indicators: Indicators;
    }
  /** A finding was promoted towards project memory; the memory store takes it as a candidate. */
  | { type: 'memory.candidate'; item: ContextItem };

/** A refused engine operation: `code` for programs, `message` for people. Nothing was changed. */
export class EngineError extends Error {
  constructor(
    readonly code: 'not_found' | 'duplicate' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
