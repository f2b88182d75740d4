import type { AgentDto } from '../contract';
import type { Engine } from '../Engine';
import type { AgentRecord, Catalog } from '../node/catalog/Catalog';
import { cacheHitRate } from '../metrics/cacheHitRate';

/**
 * The contract form of a stored agent, with its derived figures, how its generation began, read
 * from the engine that built it (`[agent-boundary]`), and its newest error, read from the catalog's
 * log (`[agent-last-error]`): every listing and every update says the same.
 */
export function toAgentDto(record: AgentRecord, engine: Pick<Engine, 'boundaryOf'>, log: Pick<Catalog, 'lastErrorOf'>): AgentDto {
  const e = log.lastErrorOf(record.agentId);
  return {
    ...record,
    cacheHitRate: cacheHitRate(record.usage),
    boundary: engine.boundaryOf(record.agentId, record.generation) ?? null,
    lastError: e ? { message: e.message, at: e.at, seq: e.seq } : null,
  };
}
