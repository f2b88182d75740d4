import { generationOverflow } from './Generation';
import type { ContextItem } from '../items/ContextItem';
import { tierOf } from '../items/tiers';
import { clipOversized } from '../pack/pack';
import { audienceExclusion, scopeExclusion } from '../pack/Scope';
import type { BlockCounter } from '../prompt/BlockCounter';
import { prepareQuery, scoreItem } from '../retrieve/score';
import type { RetrieveRequest } from '../retrieve/RetrieveRequest';
import type { AgentIdentity } from './AgentIdentity';
import type { CompressedEntry, DroppedEntry, Generation, IncludedEntry } from './Generation';
import { droppedLogOf } from './DroppedLog';
import type { GenerationState } from './GenerationState';
import { l2Order } from './layerOrder';
import { MAX_PACK_RATIO } from './startGeneration';

export interface AppendInput {
  identity: AgentIdentity;
  state: GenerationState;
  generation: Generation;
  /** Items that entered the pool since the generation last looked, in arrival order. */
  arrivals: readonly ContextItem[];
  seenSeq: number;
  request: RetrieveRequest;
  reserve: number;
  blocks: BlockCounter;
  minOptionalScore: number;
}

/**
 * A build inside a generation: emitted blocks keep their order and new items append after them
 * (`[L2-append]`); nothing is reordered, compressed or evicted here (`[boundary-only-evict]`).
 * The agent's own new items always append (they are its conversation); others append when they
 * pass scope, strategy and relevance. Returns `full` without changing anything when the agent's own
 * new items and the new tier-1 items would exceed the budget: the caller then starts a new
 * generation (`[rebuild-at-budget]`); other agents' tier 2-4 items that do not fit are dropped until
 * the next boundary instead (`[optional-waits]`).
 */
export function appendToGeneration(a: AppendInput): 'full' | 'appended' {
  const { state, generation, identity, blocks } = a;
  const ctx = { role: identity.role, phase: state.phase, taskId: identity.taskId, dependencyTaskIds: state.scope.dependencyTaskIds };
  const q = prepareQuery(a.request);
  const dropped: DroppedEntry[] = [];
  const fresh: IncludedEntry[] = [];
  const own: ContextItem[] = [];
  const clipping = { maxItemTokens: state.scope.maxItemTokens, tokens: (i: ContextItem) => blocks.tokens(i), countText: (t: string) => blocks.text(t) };
  const clips = new Map<string, { whole: ContextItem; clip: CompressedEntry }>();
  // A clipped arrival that does not enter is recorded as dropped whole, as the pool has it.
  const asDropped = (e: IncludedEntry) => {
    const c = clips.get(e.item.id);
    return c ? { item: c.whole, tokens: c.clip.from } : { item: e.item, tokens: e.tokens };
  };

  for (const item of a.arrivals) {
    if (state.emitted.has(item.id)) continue;
    const mine = item.provenance.agentId === identity.agentId;
    if (mine) own.push(item);
    const excluded =
      audienceExclusion(item, identity.agentId) ?? scopeExclusion(state.scope, item) ?? (item.pinned || item.mandatory ? undefined : state.strategy.exclude(item, ctx));
    if (excluded) {
      dropped.push({ item, tokens: blocks.tokens(item), reason: excluded });
      continue;
    }
    const { score } = scoreItem(item, q);
    const tier = tierOf(item);
    if (!mine && tier === 4 && score < a.minOptionalScore) {
      dropped.push({ item, tokens: blocks.tokens(item), reason: `low relevance: below ${a.minOptionalScore} for optional material`, score });
      continue;
    }
    const why = mine
      ? `new in this generation from ${identity.agentId}`
      : tier === 1
        ? 'new tier-1 item; appended now, moves to L1 at the next boundary'
        : `new since the generation began, score ${score.toFixed(2)}`;
    // An oversized arrival enters clipped, as a fresh pack would show it, so a boundary keeps its bytes.
    const shown = clipOversized(item, blocks.tokens(item), clipping);
    if (shown.clip) clips.set(item.id, { whole: item, clip: shown.clip });
    fresh.push({ item: shown.item, layer: 'L2', tokens: shown.tokens, score, tier, why: shown.clip ? `${why}; clipped to ${shown.tokens} tokens` : why });
  }
  fresh.sort(l2Order(state.strategy.order));

  const needed = fresh.reduce((n, e) => n + e.tokens, 0);
  const base = state.l0Tokens + state.l1Tokens + state.l2Tokens + a.reserve;
  if (generationOverflow(generation) > 0 && base + needed > generation.budget) {
    // Pinned content already overflows, so a new generation could not fit more either: protected
    // items still enter (the overflow grows and is recorded), the rest wait for a boundary.
    const kept = fresh.filter((e) => e.item.pinned || e.item.mandatory);
    for (const e of fresh) if (!kept.includes(e)) dropped.push({ ...asDropped(e), reason: 'budget: pinned content already overflows the budget' });
    fresh.splice(0, fresh.length, ...kept);
  } else {
    // Only what the agent must see forces a new generation: its own items and tier 1 (pins,
    // objectives, constraints). Other agents' code reads, failures and findings (tiers 2-4) append
    // only up to the others' ceiling, which keeps half of the generation's headroom for the agent's
    // own turns; the rest waits for the next boundary, where it competes in the full pack.
    // Otherwise fifty busy workers sharing a pool fill each other's headroom and re-pack (and miss
    // the prompt cache) every other turn.
    const required = fresh.filter((e) => e.item.provenance.agentId === identity.agentId || e.tier === 1);
    const requiredTokens = required.reduce((n, e) => n + e.tokens, 0);
    if (base + requiredTokens > generation.budget) return 'full';
    let room = othersCeiling(generation.budget, state.strategy.packRatio) - base - requiredTokens;
    const optional = fresh.filter((e) => !required.includes(e)).sort((x, y) => x.tier - y.tier || (y.score ?? 0) - (x.score ?? 0));
    const fits = new Set<IncludedEntry>();
    for (const e of optional) {
      if (e.tokens > room) {
        dropped.push({ ...asDropped(e), reason: `budget: tier-${e.tier} material from ${e.item.provenance.agentId} waits for the next boundary`, ...(e.score !== undefined ? { score: e.score } : {}) });
        continue;
      }
      room -= e.tokens;
      fits.add(e);
    }
    if (fits.size < optional.length) fresh.splice(0, fresh.length, ...fresh.filter((e) => required.includes(e) || fits.has(e)));
  }

  for (const e of fresh) {
    state.l2Blocks.push(blocks.rendered(e.item).block);
    state.emitted.add(e.item.id);
    state.l2Tokens += e.tokens;
    generation.included.push(e);
    const c = clips.get(e.item.id);
    if (c) generation.compressed.push(c.clip);
  }
  state.ownItems.push(...own);
  if (own.some((i) => i.kind === 'finding' || i.kind === 'decision' || i.kind === 'report')) state.lastProgressBuild = generation.builds + 1;
  state.seenSeq = a.seenSeq;
  const log = droppedLogOf(generation);
  if (log) log.push(dropped);
  else generation.dropped.push(...dropped);
  generation.droppedTotal += dropped.length;
  return 'appended';
}

/**
 * How far other agents' tier 2-4 material may fill a generation (`[optional-waits]`): the pack
 * target plus half of the headroom above it, so the other half stays for the agent's own turns.
 */
export function othersCeiling(budget: number, packRatio: number): number {
  const target = Math.floor(budget * Math.min(packRatio, MAX_PACK_RATIO));
  return target + Math.floor((budget - target) / 2);
}
