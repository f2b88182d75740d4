import type { AgentDto } from '../contract';
import type { AgentRecord } from '../node/catalog/Catalog';
import { cacheHitRate } from '../metrics/cacheHitRate';

/** The contract form of a stored agent, with its derived figures. */
export function toAgentDto(record: AgentRecord): AgentDto {
  return { ...record, cacheHitRate: cacheHitRate(record.usage) };
}
