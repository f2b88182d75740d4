import type { UsageDto } from '../../../engine/contract';

/** Actions of the usage slice (the charts' data): the `getUsage` backfill of one agent. */
export type UsageAction =
  | { type: 'usage.loading'; agentId: string }
  | { type: 'usage.snapshot'; usage: UsageDto }
  | { type: 'usage.failed'; agentId: string };

/** Host events the usage slice reduces (the controller subscribes to them). */
export const USAGE_EVENTS = ['usage.recorded', 'generation.created', 'context.refreshed'] as const;
