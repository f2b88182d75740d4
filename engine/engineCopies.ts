import type { BuildRequest } from './EngineTypes';
import type { AgentIdentity } from './generations/AgentIdentity';
import { droppedLogOf, lazyDroppedCopy } from './generations/DroppedLog';
import type { Generation } from './generations/Generation';
import type { Scope } from './pack/Scope';

/**
 * The copies the Engine takes of what callers hand it and gives out of what it holds, so no caller
 * keeps a reference into its state (`[one-boundary]`): what comes in is copied (and frozen where
 * the Engine keeps it as is), what goes out is a snapshot later builds do not change.
 */

/** A frozen copy of a scope, its lists copied. */
export const cloneScope = (scope: Scope): Scope => {
  const out: Scope = { ...scope };
  if (scope.classes) out.classes = [...scope.classes];
  if (scope.dependencyTaskIds) out.dependencyTaskIds = [...scope.dependencyTaskIds];
  return Object.freeze(out);
};

/** A frozen copy of an identity and its scope (`[identity-survives]`: the Engine hands out this one object). */
export const cloneIdentity = (identity: AgentIdentity): AgentIdentity => Object.freeze({ ...identity, scope: cloneScope(identity.scope) });

/** A copy of a build request, its lists copied (the Engine keeps it as the agent's last request). */
export const cloneRequest = (r: BuildRequest): BuildRequest => {
  const out: BuildRequest = { ...r };
  for (const k of ['files', 'symbols', 'keywords', 'failures'] as const) if (r[k]) out[k] = [...(r[k] as string[])];
  return out;
};

/**
 * A copy of a generation that later builds do not change (`[generations-kept]`). Entries are
 * shared: they are never changed once made (and their items are frozen), so copying the arrays is
 * enough.
 */
export const snapshotGeneration = (g: Generation): Generation => {
  const copy: Generation = {
    agentId: g.agentId,
    number: g.number,
    phase: g.phase,
    strategy: g.strategy,
    budget: g.budget,
    layerTokens: { ...g.layerTokens },
    included: [...g.included],
    dropped: [],
    droppedTotal: g.droppedTotal,
    compressed: [...g.compressed],
    boundary: { kind: g.boundary.kind, reason: g.boundary.reason },
    builds: g.builds,
    prefixHash: g.prefixHash,
    startedAt: g.startedAt,
    indicators: { ...g.indicators, fired: [...g.indicators.fired] },
    ...(g.released ? { released: { ...g.released } } : {}),
  };
  // Reading a live generation's dropped list materializes it; a snapshot defers that too.
  const log = droppedLogOf(g);
  if (log) lazyDroppedCopy(copy, g, log.count);
  else copy.dropped = [...g.dropped];
  return copy;
};
