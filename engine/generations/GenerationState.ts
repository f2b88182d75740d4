import type { ContextItem } from '../items/ContextItem';
import type { Scope } from '../pack/Scope';
import type { Strategy } from '../strategies/Strategy';

/**
 * The live part of an agent's current generation: the frozen static text and the L2 blocks in
 * emitted order. Only the Engine holds and changes it.
 */
export interface GenerationState {
  number: number;
  phase: string;
  strategy: Strategy;
  scope: Scope;
  /** L0 + L1 as rendered at the boundary; byte-identical for every build of the generation. */
  l0: string;
  l1: string;
  l1Tokens: number;
  l0Tokens: number;
  /** Rendered L2 blocks, emitted order; builds only append (`[L2-append]`). */
  l2Blocks: string[];
  l2Tokens: number;
  /** Ids of items in L1 or L2. */
  emitted: Set<string>;
  /** Pool sequence number up to which items were considered for this generation. */
  seenSeq: number;
  /** Items this agent produced during the generation, in arrival order. */
  ownItems: ContextItem[];
  /** Build number of the last new finding/decision/report (progress). */
  lastProgressBuild: number;
}
