import type { CallDto, StrataEvent } from '../../../engine/contract';

/** A cache-model call of `agentId` at `turn`; the run clock moves 20 s a turn, like the demo's. */
export function makeCall(agentId: string, turn: number, over: Partial<CallDto> = {}): CallDto {
  return {
    agentId,
    turn,
    generation: 1,
    at: Date.parse('2026-01-05T09:00:00Z') + turn * 20_000,
    usage: { input: 100, cacheRead: 800, cacheWrite: 100, output: 50 },
    modeled: true,
    hitRate: 0.8,
    prefixReuse: 0.9,
    reuseBytes: { reused: 900, prompt: 1000 },
    retries: 0,
    ...over,
  };
}

export const usageRecorded = (calls: CallDto[]): StrataEvent => ({ name: 'usage.recorded', payload: { calls } });
export const generationCreated = (agentId: string, generation: number, reason = 'rebuild'): StrataEvent => ({
  name: 'generation.created',
  payload: { generations: [{ agentId, generation, previous: generation > 1 ? generation - 1 : null, reason }] },
});
export const contextRefreshed = (agentId: string, to: number, reason = 'context limit'): StrataEvent => ({
  name: 'context.refreshed',
  payload: { refreshes: [{ agentId, from: to - 1, to, reason }] },
});
