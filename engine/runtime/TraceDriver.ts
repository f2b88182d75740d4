import { ContextLimitError } from '../refresh/ContextLimitError';
import type { AgentAction, Driver, TurnContext } from './Driver';

/** One recorded turn of an agent; `contextLimit` replays a provider that refused the prompt once. */
export interface RecordedTurn extends AgentAction {
  contextLimit?: string;
}

/**
 * Replays recorded actions, per agent, in order. A turn marked `contextLimit` first throws the
 * provider's context-limit error (once), so the runtime's refresh-and-retry path runs as it would
 * live. An agent whose recording is exhausted is done.
 */
export class TraceDriver implements Driver {
  readonly kind = 'trace' as const;
  readonly tools = [];
  readonly #turns: ReadonlyMap<string, readonly RecordedTurn[]>;
  readonly #next = new Map<string, number>();
  readonly #refused = new Set<string>();

  constructor(turns: ReadonlyMap<string, readonly RecordedTurn[]>) {
    this.#turns = turns;
  }

  /** Turns left for `agentId`. */
  remaining(agentId: string): number {
    return (this.#turns.get(agentId)?.length ?? 0) - (this.#next.get(agentId) ?? 0);
  }

  async act(context: TurnContext): Promise<AgentAction> {
    const id = context.agent.agentId;
    const index = this.#next.get(id) ?? 0;
    const recorded = this.#turns.get(id)?.[index];
    if (!recorded) return { text: 'Recording finished.', toolCalls: [], done: true };
    const key = `${id}#${index}`;
    if (recorded.contextLimit && !this.#refused.has(key)) {
      this.#refused.add(key);
      throw new ContextLimitError(recorded.contextLimit, 'trace');
    }
    if (context.signal.aborted) throw context.signal.reason ?? new Error('cancelled');
    this.#next.set(id, index + 1);
    const { contextLimit: _ignored, ...action } = recorded;
    const last = index + 1 >= (this.#turns.get(id)?.length ?? 0);
    return { ...action, done: action.done ?? last };
  }
}
