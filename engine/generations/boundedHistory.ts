import { DROPPED_KEPT, type Generation } from './Generation';

/**
 * Generations per agent that keep their dropped sample in memory: the current one, whose sample
 * still grows and is stored as it does; an ended one's sample is in the catalog, and the items a
 * sample names (often long removed from the pool) would otherwise stay alive with it.
 */
export const RECENT_GENERATIONS = 1;
/** Generations per agent that keep their included entries in memory; older ones keep counts only. */
export const RECENT_FULL_GENERATIONS = 8;

/** What an agent's generation history lets go of when a new generation begins. */
export interface HistoryRelease {
  /** Generations whose in-memory dropped sample shrinks to `keep` entries, in the order to apply. */
  samples: { generation: Generation; keep: number }[];
  /** The generation whose included and compressed entries leave memory now (counts stay). */
  entries?: Generation;
}

/**
 * `[bounded-history]`: as a new generation begins (`generations` holds the ones before it), the
 * ending generation keeps at most {@link DROPPED_KEPT} dropped entries, generations older than the
 * newest {@link RECENT_GENERATIONS} release their dropped sample and the one that falls out of the
 * newest {@link RECENT_FULL_GENERATIONS} its included and compressed entries; the workspace catalog
 * stored them when they were built, so a long run's memory does not grow with its generations.
 */
export function historyToRelease(generations: readonly Generation[]): HistoryRelease {
  const samples: HistoryRelease['samples'] = [];
  const previous = generations.at(-1);
  if (previous) samples.push({ generation: previous, keep: DROPPED_KEPT });
  const old = generations[generations.length - RECENT_GENERATIONS];
  if (old) samples.push({ generation: old, keep: 0 });
  const stale = generations[generations.length - RECENT_FULL_GENERATIONS];
  return stale && !stale.released ? { samples, entries: stale } : { samples };
}
