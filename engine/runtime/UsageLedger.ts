import type { Usage } from '../providers/Provider';

/** One provider call as accounted: provider figures when a provider answered, modeled otherwise. */
export interface CallRecord {
  agentId: string;
  /** 1-based turn of the agent. */
  turn: number;
  generation: number;
  at: number;
  usage: Usage;
  /** True when the figures come from the cache model (a replay or the demo), not a provider. */
  modeled: boolean;
  /** The cache model's figures for a call a provider answered (compare them with `usage`). */
  modeledUsage?: Usage;
  /** `cacheHitRate` of `usage` (`[hit-rate-def]`). */
  hitRate: number;
  /** `prefixReuse` of this request against the agent's previous one (`[prefix-reuse-def]`). */
  prefixReuse: number;
  /** The bytes behind `prefixReuse`, so a view can weight reuse by bytes over several calls (`[agent-reuse-def]`). */
  reuseBytes: { reused: number; prompt: number };
  /**
   * Every retry this call needed (`[provider-retries-counted]`): the turn repeated after a
   * context-limit refresh, and each HTTP retry of the provider (`providerRetries`).
   */
  retries: number;
  /** The HTTP retries among `retries` (429, 5xx, timeouts, connection failures); 0 for a replay. */
  providerRetries: number;
}

/** Calls kept per agent for `getUsage`; totals cover every call. */
const CALLS_KEPT_PER_AGENT = 500;

/**
 * Per-agent call records (the newest {@link CALLS_KEPT_PER_AGENT}) and running totals. Bounded:
 * a run of any length holds at most that many records per agent, so a long soak stays flat.
 */
export class UsageLedger {
  readonly #calls = new Map<string, CallRecord[]>();
  readonly #totals = new Map<string, Usage & { calls: number }>();

  record(call: CallRecord): void {
    const list = this.#calls.get(call.agentId) ?? [];
    list.push(call);
    if (list.length > CALLS_KEPT_PER_AGENT) list.splice(0, list.length - CALLS_KEPT_PER_AGENT);
    this.#calls.set(call.agentId, list);
    const t = this.#totals.get(call.agentId) ?? { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, calls: 0 };
    this.#totals.set(call.agentId, { input: t.input + call.usage.input, cacheRead: t.cacheRead + call.usage.cacheRead, cacheWrite: t.cacheWrite + call.usage.cacheWrite, output: t.output + call.usage.output, calls: t.calls + 1 });
  }

  calls(agentId: string): CallRecord[] {
    return [...(this.#calls.get(agentId) ?? [])];
  }

  totals(agentId: string): Usage & { calls: number } {
    return { ...(this.#totals.get(agentId) ?? { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, calls: 0 }) };
  }

  forget(agentId: string): void {
    this.#calls.delete(agentId);
    this.#totals.delete(agentId);
  }
}
