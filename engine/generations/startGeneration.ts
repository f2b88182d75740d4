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
  /** The previous generation's L2 entries, in emitted order, when this boundary keeps their surviving prefix. */
  previousL2?: readonly IncludedEntry[];
  /**
   * The item ids of the previous generation's L1, when this boundary keeps L1 as it was: a tier-1
   * item that is neither pinned nor mandatory and was not in it goes to L2 instead (a budget rebuild).
   */
  previousL1?: ReadonlySet<string>;
  /**
   * Share of the pack target the kept L2 prefix may spend on entries a fresh pack would not take
   * (`[rebuild-keeps-prefix]`: a budget rebuild trades a little relevance for the cache). 0 when absent.
   */
  staleShare?: number;
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
  const target = Math.max(0, Math.floor(budget * Math.min(strategy.packRatio, MAX_PACK_RATIO)) - l0Tokens - i.reserve);
  const packInto = (into: { room: number; target: number }) =>
    packSource(
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
        budget: into.room,
        target: into.target,
        minOptionalScore: i.minOptionalScore,
        maxItemTokens: scope.maxItemTokens,
        compressMinTokens: i.compressMinTokens,
        order: strategy.order,
        tokens: (item) => blocks.tokens(item),
        countText: (text) => blocks.text(text),
      },
    );
  let packed = packInto({ room, target });
  // `[rebuild-keeps-prefix]`: the previous L2 entries that survive stay in front with the same
  // bytes, so the provider's cached prefix still matches; what else enters follows them.
  // The kept prefix never displaces what the fresh pack put in L1 (pins, mandatory and other tier-1 items).
  const l1Fresh = packed.included.reduce((n, e) => n + (e.layer === 'L1' ? e.tokens : 0), 0);
  const prefix = survivingPrefix(i.previousL2, packed.included, {
    index,
    isCandidate,
    scores,
    minOptionalScore: i.minOptionalScore,
    room: target - l1Fresh,
    staleAllowance: Math.floor(target * (i.staleShare ?? 0)),
    maxItemTokens: scope.maxItemTokens,
  });
  if (prefix.stale > 0) {
    // Entries the fresh pack left out stay in place: pack the rest around everything kept.
    let keptTokens = 0;
    for (const e of prefix.kept) {
      isCandidate[index.slotOf(e.item.id) as number] = 0;
      keptTokens += e.tokens;
    }
    packed = packInto({ room: Math.max(0, room - keptTokens), target: Math.max(0, target - keptTokens) });
  }
  const keptIds = new Set(prefix.kept.map((e) => e.item.id));

  const staysOutOfL1 = (e: IncludedEntry) => i.previousL1 !== undefined && !i.previousL1.has(e.item.id) && !e.item.pinned && !e.item.mandatory;
  const l1 = packed.included.filter((e) => e.layer === 'L1' && !keptIds.has(e.item.id) && !staysOutOfL1(e)).sort(l1Order);
  const lateTier1 = packed.included.filter((e) => e.layer === 'L1' && !keptIds.has(e.item.id) && staysOutOfL1(e)).map((e) => relayered(e, 'L2'));
  const l2 = [...prefix.kept, ...lateTier1, ...packed.included.filter((e) => e.layer === 'L2' && !keptIds.has(e.item.id)).sort(l2Order(strategy.order))];
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
    layerTokens: { L0: l0Tokens, L1: l1Tokens, L2: l2Tokens, L3: i.reserve },
    included,
    dropped: [],
    droppedTotal: packed.droppedLog.count + excluded.length,
    compressed: packed.compressed,
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

/** The entry in another layer (a plain copy: the lazily computed `why` is read once). */
function relayered(e: IncludedEntry, layer: IncludedEntry['layer']): IncludedEntry {
  return { item: e.item, layer, tokens: e.tokens, score: e.score, tier: e.tier, why: `${e.why}; in L2 until the next refresh, so L1 stays as it was` };
}

/** The entry still shows this item as the pool holds it (not changed by verify, promote or pin since). */
function sameValue(shown: ContextItem, now: ContextItem): boolean {
  return shown === now || (shown.provenance === now.provenance && shown.class === now.class && shown.kind === now.kind && shown.pinned === now.pinned && shown.mandatory === now.mandatory && shown.title === now.title);
}

/**
 * `[rebuild-keeps-prefix]`: the longest prefix of the previous generation's L2 that this boundary
 * keeps in place. An entry survives while its item is still in the pool with the same value and
 * still a candidate, and either the fresh pack took it with the same content (its fresh entry is
 * kept: same bytes, today's score) or, at a budget rebuild (whether the fresh pack left it out or
 * took it only compressed), it is not irrelevant, fits the scope's clip size, and stays within
 * `staleAllowance` tokens of such entries (its previous entry is kept, marked). The prefix never
 * outgrows `room`. The first entry that fails ends it: everything after a change is written to
 * the cache again anyway.
 */
function survivingPrefix(
  previous: readonly IncludedEntry[] | undefined,
  fresh: readonly IncludedEntry[],
  o: { index: PoolIndex; isCandidate: Uint8Array; scores: Float64Array; minOptionalScore: number; room: number; staleAllowance: number; maxItemTokens: number | undefined },
): { kept: IncludedEntry[]; stale: number } {
  const kept: IncludedEntry[] = [];
  let tokens = 0;
  let stale = 0;
  if (!previous || previous.length === 0) return { kept, stale };
  const taken = new Map(fresh.map((e) => [e.item.id, e]));
  for (const e of previous) {
    const slot = o.index.slotOf(e.item.id);
    if (slot === undefined || o.isCandidate[slot] !== 1) break;
    if (!sameValue(e.item, o.index.itemAt(slot) as ContextItem)) break;
    const now = taken.get(e.item.id);
    let entry: IncludedEntry;
    if (now && now.layer === 'L1') {
      // A tier-1 item that arrived during the previous generation was appended to its L2. At a
      // budget rebuild it keeps that place, so L1 (the static part) stays byte for byte; a pin,
      // phase change, manual rebuild or refresh moves it into L1.
      if (o.staleAllowance === 0 || now.item.pinned || now.item.mandatory || now.item.contentHash !== e.item.contentHash) break;
      entry = { ...relayered(now, 'L2'), tokens: e.tokens };
    } else if (now && now.item.contentHash === e.item.contentHash) {
      entry = now;
    } else {
      // Left out by the fresh pack, or taken only in another form (compressed to fit what was left
      // of the target): at a budget rebuild it may keep its place with the bytes already shown.
      const irrelevant = o.index.tier.data[slot] === 4 && (o.scores[slot] as number) < o.minOptionalScore;
      if (irrelevant || stale + e.tokens > o.staleAllowance || (o.maxItemTokens !== undefined && e.tokens > o.maxItemTokens)) break;
      entry = { item: e.item, layer: e.layer, tokens: e.tokens, score: o.scores[slot] as number, tier: e.tier, why: `${e.why}; kept in place at the rebuild so the cached prefix still matches` };
      stale += e.tokens;
    }
    if (tokens + entry.tokens > o.room) break;
    tokens += entry.tokens;
    kept.push(entry);
  }
  return { kept, stale };
}
