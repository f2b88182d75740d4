import type { ContextItem } from '../items/ContextItem';
import type { Tier } from '../items/tiers';
import { packSource } from '../pack/pack';
import { audienceExclusion, scopeExclusion } from '../pack/Scope';
import type { BlockCounter } from '../prompt/BlockCounter';
import { roleInstructions } from '../prompt/roleInstructions';
import { computeIndicators } from '../refresh/indicators';
import { PoolIndex } from '../retrieve/PoolIndex';
import { prepareQuery } from '../retrieve/score';
import { scoreAll } from '../retrieve/scoreAll';
import type { RetrieveRequest } from '../retrieve/RetrieveRequest';
import type { Strategy } from '../strategies/Strategy';
import type { Scope } from '../pack/Scope';
import type { AgentIdentity } from './AgentIdentity';
import type { Boundary, DroppedEntry, Generation, IncludedEntry } from './Generation';
import { attachDroppedLog } from './DroppedLog';
import type { GenerationState } from './GenerationState';
import { l1Order, l2Order } from './layerOrder';

export interface StartInput {
  identity: AgentIdentity;
  strategy: Strategy;
  scope: Scope;
  number: number;
  boundary: Boundary;
  /** The pool (the Engine passes its index; tests may pass plain items). */
  pool: PoolIndex | Iterable<ContextItem>;
  /** Rendered-block tokens of an item in the pool index (cached per slot). */
  slotTokens?: (index: PoolIndex, slot: number) => number;
  seenSeq: number;
  request: RetrieveRequest;
  /** Tokens reserved for L3 (input and status) and the layer framing. */
  reserve: number;
  /** L2 item ids of the previous generation, when this boundary keeps their surviving prefix. */
  previousL2?: readonly string[];
  blocks: BlockCounter;
  minOptionalScore: number;
  compressMinTokens: number;
}

/** The hysteresis band (`[hysteresis-10]`): a fresh pack fills at most 90% of the budget. */
export const MAX_PACK_RATIO = 0.9;

/**
 * Begin a generation: score the whole pool afresh, pack it by tier into the strategy's share of
 * the budget, freeze L0+L1, order L2 by durability then content hash (`[L2-order]`). Pure apart
 * from the token cache.
 */
export function startGeneration(i: StartInput): { state: GenerationState; generation: Generation } {
  const { identity, strategy, scope, blocks } = i;
  const budget = Math.max(1, Math.floor(identity.budget * strategy.budgetFactor));
  const ctx = { role: identity.role, phase: i.request.phase, taskId: identity.taskId, dependencyTaskIds: scope.dependencyTaskIds };

  const index = i.pool instanceof PoolIndex ? i.pool : new PoolIndex(i.pool);
  const tokensAt = (slot: number) => (i.slotTokens ? i.slotTokens(index, slot) : blocks.tokens(index.itemAt(slot) as ContextItem));
  const excluded: DroppedEntry[] = [];
  const isCandidate = index.scratch('candidate', index.arrivals, (n) => new Uint8Array(n));
  // Scope and strategy decide on class, kind, source, task, phase and protection only, so each
  // distinct combination is decided once per build.
  const decided: (string | null | undefined)[] = new Array(index.comboCount);
  const alive = index.alive.data;
  const combo = index.combo.data;
  for (let slot = 0; slot < index.arrivals; slot++) {
    if (alive[slot] === 0) continue;
    const c = combo[slot] as number;
    let reason = decided[c];
    if (reason === undefined) {
      const item = index.itemAt(slot) as ContextItem;
      reason = audienceExclusion(item, identity.agentId) ?? scopeExclusion(scope, item) ?? (item.pinned || item.mandatory ? undefined : strategy.exclude(item, ctx)) ?? null;
      decided[c] = reason;
    }
    if (reason !== null) excluded.push({ item: index.itemAt(slot) as ContextItem, tokens: tokensAt(slot), reason });
    else isCandidate[slot] = 1;
  }
  const query = prepareQuery(i.request);
  const { scores, parts } = scoreAll(index, query);

  const l0 = roleInstructions(identity.role);
  const l0Tokens = blocks.text(l0);
  const room = Math.max(0, budget - l0Tokens - i.reserve);
  const packed = packSource(
    {
      length: index.arrivals,
      isCandidate: (slot) => isCandidate[slot] === 1,
      item: (slot) => index.lastItemAt(slot) as ContextItem,
      tier: (slot) => index.tier.data[slot] as Tier,
      isProtected: (slot) => index.protectedFlag.data[slot] === 1,
      score: (slot) => scores[slot] as number,
      tokens: tokensAt,
      parts,
      columns: {
        candidate: isCandidate,
        score: scores,
        tier: index.tier.data,
        protectedFlag: index.protectedFlag.data,
        keys: index.scratch('keys', index.arrivals, (n) => new Float64Array(n)),
        state: index.scratch('state', index.arrivals, (n) => new Uint8Array(n)),
      },
    },
    {
    budget: room,
    target: Math.max(0, Math.floor(budget * Math.min(strategy.packRatio, MAX_PACK_RATIO)) - l0Tokens - i.reserve),
    minOptionalScore: i.minOptionalScore,
    maxItemTokens: scope.maxItemTokens,
    compressMinTokens: i.compressMinTokens,
    order: strategy.order,
    tokens: (item) => blocks.tokens(item),
    countText: (text) => blocks.text(text),
    },
  );

  const l1 = packed.included.filter((e) => e.layer === 'L1').sort(l1Order);
  const l2 = keepPrefix(packed.included.filter((e) => e.layer === 'L2').sort(l2Order(strategy.order)), i.previousL2);
  const l1Text = l1.map((e) => blocks.rendered(e.item).block).join('');
  const l2Blocks = l2.map((e) => blocks.rendered(e.item).block);
  const l1Tokens = l1.reduce((n, e) => n + e.tokens, 0);
  const l2Tokens = l2.reduce((n, e) => n + e.tokens, 0);
  const included: IncludedEntry[] = [...l1, ...l2];
  const tokens = l0Tokens + l1Tokens + l2Tokens + i.reserve;

  const state: GenerationState = {
    number: i.number,
    phase: i.request.phase,
    strategy,
    scope,
    l0,
    l1: l1Text,
    l0Tokens,
    l1Tokens,
    l2Blocks,
    l2Tokens,
    emitted: new Set(included.map((e) => e.item.id)),
    seenSeq: i.seenSeq,
    ownItems: [],
    lastProgressBuild: 0,
  };
  const generation: Generation = {
    agentId: identity.agentId,
    number: i.number,
    phase: i.request.phase,
    strategy: strategy.name,
    budget,
    tokens,
    layerTokens: { L0: l0Tokens, L1: l1Tokens, L2: l2Tokens, L3: i.reserve },
    included,
    dropped: [],
    droppedTotal: packed.droppedLog.count + excluded.length,
    compressed: packed.compressed,
    overflow: Math.max(0, tokens - budget),
    boundary: i.boundary,
    builds: 0,
    prefixHash: '',
    startedAt: i.request.now,
    indicators: computeIndicators({ tokens, budget, phase: i.request.phase, ownItems: [], included, stalledBuilds: 0 }),
  };
  packed.droppedLog.push(excluded);
  attachDroppedLog(generation, packed.droppedLog);
  return { state, generation };
}

/**
 * `[rebuild-keeps-prefix]`: at a budget rebuild, the previous generation's L2 items that are
 * still selected keep their order at the front (up to the first one that is not), so the cached
 * prefix survives the re-pack; the rest follow in durability/content-hash order.
 */
function keepPrefix(sorted: IncludedEntry[], previous: readonly string[] | undefined): IncludedEntry[] {
  if (!previous || previous.length === 0) return sorted;
  const byId = new Map(sorted.map((e) => [e.item.id, e]));
  const head: IncludedEntry[] = [];
  for (const id of previous) {
    const e = byId.get(id);
    if (!e) break;
    head.push(e);
    byId.delete(id);
  }
  return [...head, ...sorted.filter((e) => byId.has(e.item.id))];
}
