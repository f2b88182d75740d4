import type { AgentDto } from '../contract';
import type { Engine } from '../Engine';
import type { AgentRecord } from '../node/catalog/Catalog';
import { cacheHitRate } from '../metrics/cacheHitRate';

/**
 * The contract form of a stored agent, with its derived figures and how its generation began, read
 * from the engine that built it (`[agent-boundary]`): every listing and every update says the same.
 */
export function toAgentDto(record: AgentRecord, engine: Pick<Engine, 'boundaryOf'>): AgentDto {
  return { ...record, cacheHitRate: cacheHitRate(record.usage), boundary: engine.boundaryOf(record.agentId, record.generation) ?? null };
}
