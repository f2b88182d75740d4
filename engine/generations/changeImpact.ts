import { type Generation, generationTokens, type IncludedEntry } from './Generation';

/** An item control whose effect on other agents' prompt caches can be previewed. */
export type ItemChange = 'remove' | 'pin' | 'unpin' | 'verify' | 'promote';

/** What one agent's cached prompt loses when an item changes (`[change-preview]`). */
export interface AgentImpact {
  agentId: string;
  /** The agent's current generation. */
  generation: number;
  /** Where that generation holds the item; null when it does not hold it. */
  layer: 'L1' | 'L2' | null;
  /**
   * `next build`: the change forces a new generation at the agent's next build; `next boundary`:
   * nothing is forced, the change shows when the agent's next generation begins.
   */
  when: 'next build' | 'next boundary';
  /** The agent's latest prompt, in tokens. */
  promptTokens: number;
  /** Tokens of that prompt past the point where the new prompt first differs: the part the provider's cache can no longer serve. */
  lostTokens: number;
}

/** An agent's current generation, as the preview needs it. */
export interface ImpactInput {
  agentId: string;
  generation: Pick<Generation, 'number' | 'layerTokens' | 'included'>;
}

/** Tokens from the entry of `itemId` in L2 to the end of the prompt (a boundary keeps the L2 entries before it). */
function fromL2Entry(l2: readonly IncludedEntry[], itemId: string, l3: number): number {
  const at = l2.findIndex((e) => e.item.id === itemId);
  return l2.slice(at).reduce((n, e) => n + e.tokens, 0) + l3;
}

/**
 * The preview of an item change over the agents with a current generation: which of them start a
 * new generation, when, and what their cached prefix loses. Pure: the Engine gives it each agent's
 * current generation.
 *
 * - remove: agents holding the item rebuild at their next build; from its place on, the prompt changes.
 * - pin: every agent rebuilds at its next build and takes the item into L1: from L1 on changes.
 * - unpin: every agent rebuilds; those holding it in L1 change from L1 on, the others keep their prefix (only L3).
 * - verify, promote: nothing is forced; holders show the new value from their next boundary, from its
 *   place on (a promoted objective leaves L1, so from L1 on).
 */
export function changeImpact(itemId: string, change: ItemChange, agents: readonly ImpactInput[]): AgentImpact[] {
  const out: AgentImpact[] = [];
  for (const { agentId, generation: g } of agents) {
    const entry = g.included.find((e) => e.item.id === itemId);
    const layer: AgentImpact['layer'] = entry?.layer === 'L1' || entry?.layer === 'L2' ? entry.layer : null;
    const afterL0 = g.layerTokens.L1 + g.layerTokens.L2 + g.layerTokens.L3;
    const l2 = g.included.filter((e) => e.layer === 'L2');
    const fromItem = layer === 'L1' ? afterL0 : layer === 'L2' ? fromL2Entry(l2, itemId, g.layerTokens.L3) : 0;
    const base = { agentId, generation: g.number, layer, promptTokens: generationTokens(g) };
    if (change === 'pin') out.push({ ...base, when: 'next build', lostTokens: afterL0 });
    else if (change === 'unpin') out.push({ ...base, when: 'next build', lostTokens: layer === 'L1' ? afterL0 : g.layerTokens.L3 });
    else if (layer !== null) out.push({ ...base, when: change === 'remove' ? 'next build' : 'next boundary', lostTokens: fromItem });
  }
  return out;
}
