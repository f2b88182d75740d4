import type { Catalog } from '../node/catalog/Catalog';
import type { Generation } from '../generations/Generation';

/**
 * A generation as the inspector shows it: the engine's snapshot, with what the engine released from
 * memory (`[bounded-history]`: included and compressed entries of old generations, dropped samples
 * past the newest generations) read back from the catalog, which stored them as each was built
 * (`[history-from-catalog]`). A generation the catalog never stored stays as the engine has it.
 */
export function withStoredEntries(g: Generation, catalog: Catalog, droppedLimit: number): Generation {
  const needIncluded = g.released !== undefined;
  const needDropped = g.dropped.length < Math.min(g.droppedTotal, droppedLimit);
  if (!needIncluded && !needDropped) return g;
  const stored = catalog.storedEntries(g.agentId, g.number, droppedLimit);
  if (!stored) return g;
  const out: Generation = { ...g, dropped: needDropped && stored.dropped.length > g.dropped.length ? stored.dropped : g.dropped };
  if (needIncluded) {
    out.included = stored.included;
    out.compressed = stored.compressed;
  }
  return out;
}
