import type { Boundary, Generation } from './Generation';
import type { StartInput } from './startGeneration';

/**
 * At a budget rebuild, the share of the pack target the kept L2 prefix may spend on entries a
 * fresh pack would leave out (`[rebuild-keeps-prefix]`): everything after the first change in the
 * prompt is written to the provider cache again, so keeping a slightly stale prefix in place is
 * cheaper than re-sorting it. Measured on the 24 shared traces (`bench:compare`, 32k / 100k):
 * 0.5 kept 94.8% / 97.5% prefix reuse at 76.6% / 83.6% recall; 0.8 keeps 95.3% / 97.6% at
 * 76.2% / 83.5%, with 6.7% / 0.7% fewer uncached tokens; 1.0 gains little more reuse (95.4%) and
 * loses more recall (75.8%).
 */
export const STALE_PREFIX_SHARE = 0.8;

/** What the previous generation hands the next one's pack. */
export type CarriedLayers = Pick<StartInput, 'previousL2' | 'previousL1' | 'staleShare'>;

/**
 * What a new generation keeps of the previous one: at a rebuild its L2 entries, whose surviving
 * prefix keeps its place (`[rebuild-keeps-prefix]`); at a budget rebuild also L1's set of items and
 * the {@link STALE_PREFIX_SHARE} (`[refresh-misses-dynamic]`). A refresh or a first build keeps
 * nothing (a refresh reorders fully).
 */
export function carriedLayers(boundary: Boundary, budgetFull: boolean, previous: Generation | undefined): CarriedLayers {
  if (!previous) return {};
  return {
    ...(boundary.kind === 'rebuild' ? { previousL2: previous.included.filter((e) => e.layer === 'L2') } : {}),
    ...(budgetFull ? { staleShare: STALE_PREFIX_SHARE, previousL1: new Set(previous.included.filter((e) => e.layer === 'L1').map((e) => e.item.id)) } : {}),
  };
}
