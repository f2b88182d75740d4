import { clipHeadTail } from '../compress/clipHeadTail';
import { compressText } from '../compress/compressText';
import type { ContextItem } from '../items/ContextItem';
import { tierOf, type Tier } from '../items/tiers';
import type { CompressedEntry, DroppedEntry, IncludedEntry } from './entries';
import { contentHash } from '../text/hash';
import type { ScoredItem } from '../retrieve/retrieve';
import type { ScoreParts } from '../retrieve/score';
import { layerOf } from '../prompt/layerOf';
import { DroppedLog } from './DroppedLog';
import { KeyHeap } from './KeyHeap';
import { whyIncluded } from './whyIncluded';

export interface PackOptions {
  /** The agent's budget (not the model's window: `[budget-not-window]`). */
  budget: number;
  /** Fill at most this many tokens with non-mandatory content. */
  target: number;
  /** Tier-4 (optional) items scoring below this are left out as irrelevant. */
  minOptionalScore: number;
  /** Clip non-mandatory items above this size to head/tail (absent: never clip). */
  maxItemTokens?: number | undefined;
  /** Compress tier 1-3 items that do not fit whole, when at least this many tokens remain. */
  compressMinTokens: number;
  /** `score`: tier then score; `recent`: newest first (chronological strategies). */
  order: 'score' | 'recent';
  /** Tokens of an item as rendered into the prompt. */
  tokens(item: ContextItem): number;
  /** Tokens of free text (for clipping and compressing content). */
  countText(text: string): number;
}

/**
 * Candidates by position: the packer never needs them as objects up front, so a 100k-item pool
 * is packed without allocating per item until an item is decided.
 */
export interface PackSource {
  readonly length: number;
  /** Whether position `i` holds a candidate (cheap: no item is touched). */
  isCandidate(i: number): boolean;
  /** The candidate at `i` (asked only for candidates being decided or recorded). */
  item(i: number): ContextItem;
  /** Its packing tier and whether it is pinned or mandatory. */
  tier(i: number): Tier;
  isProtected(i: number): boolean;
  score(i: number): number;
  tokens(i: number): number;
  /** Score parts, for the "why" of included items only. */
  parts(i: number): ScoreParts;
  /**
   * The same facts as columns, when the source has them (the pool index does): the packer then
   * reads arrays instead of calling the methods above for every position.
   */
  columns?: {
    candidate: Uint8Array;
    score: Float64Array;
    tier: Uint8Array;
    protectedFlag: Uint8Array;
    /** Zeroed work arrays of `length` elements the packer may use (so it allocates nothing per position). */
    keys: Float64Array;
    state: Uint8Array;
  };
}

export interface PackResult {
  included: IncludedEntry[];
  /** Everything left out, with reasons (materialized from `droppedLog` when read). */
  readonly dropped: DroppedEntry[];
  droppedLog: DroppedLog;
  compressed: CompressedEntry[];
  /** Item tokens included (without prompt framing). */
  tokens: number;
  overflow: number;
}

/** Room the rendered header of a block (title, evidence, files) takes beyond its content. */
const HEADER_ALLOWANCE = 32;
/** No block fits in fewer tokens than this, so packing stops trying below it. */
const MIN_BLOCK = 16;
/** After this many candidates in a row do not fit, the rest are not tried one by one. */
const MAX_MISSES = 256;
const SCORE_STEPS = 2 ** 20;
const POSITION_SPAN = 2 ** 24;

/**
 * `[scope-clip]`: `item` as it enters a context: clipped to a head/tail excerpt when its block of
 * `tokens` is over `maxItemTokens` (pinned and mandatory items never are: `[pin-never-clipped]`).
 * A fresh pack and an append clip the same item to the same bytes, so a boundary can keep it in place.
 */
export function clipOversized(
  item: ContextItem,
  tokens: number,
  o: Pick<PackOptions, 'maxItemTokens' | 'tokens' | 'countText'>,
): { item: ContextItem; tokens: number; clip?: CompressedEntry } {
  if (o.maxItemTokens === undefined || tokens <= o.maxItemTokens || tokens <= 0 || item.pinned || item.mandatory) return { item, tokens };
  const clipped = clipHeadTail(item.content, Math.max(1, o.maxItemTokens - HEADER_ALLOWANCE), o.countText);
  const entryItem = { ...item, content: clipped.text, contentHash: contentHash(clipped.text) };
  const to = o.tokens(entryItem);
  return { item: entryItem, tokens: to, clip: { itemId: item.id, from: tokens, to, method: 'clip' } };
}

/** Pack scored items (highest score first, as `retrieve` returns them). */
export function pack(candidates: readonly ScoredItem[], o: PackOptions): PackResult {
  return packSource(
    {
      length: candidates.length,
      isCandidate: () => true,
      item: (i) => (candidates[i] as ScoredItem).item,
      tier: (i) => tierOf((candidates[i] as ScoredItem).item),
      isProtected: (i) => (candidates[i] as ScoredItem).item.pinned || (candidates[i] as ScoredItem).item.mandatory,
      score: (i) => (candidates[i] as ScoredItem).score,
      tokens: (i) => o.tokens((candidates[i] as ScoredItem).item),
      parts: (i) => (candidates[i] as ScoredItem).parts,
    },
    o,
  );
}

/**
 * Pack candidates into the budget by priority tier (`[tiers]`). Pinned and mandatory items always
 * enter whole and may overflow the budget, which is recorded (`[pin-never-clipped]`,
 * `[overflow-recorded]`); the rest fill up to `target` in tier, then score order: oversized ones
 * clipped head/tail, tier 1-3 ones compressed when they do not fit whole, every other one dropped
 * with a reason (`[exclusion-reasons]`). Ties keep the candidates' order.
 */
export function packSource(src: PackSource, o: PackOptions): PackResult {
  const included: IncludedEntry[] = [];
  const dropped: DroppedEntry[] = [];
  const compressed: CompressedEntry[] = [];
  const lowRelevance = `low relevance: below ${o.minOptionalScore} for optional material`;

  let used = 0;
  const protect = (i: number, score: number) => {
    const item = src.item(i);
    const t = src.tokens(i);
    used += t;
    included.push({ item, layer: layerOf(item), tokens: t, score, tier: 1, why: item.pinned ? 'pinned by a user' : 'mandatory for the task' });
  };
  const keys = src.columns?.keys ?? new Float64Array(src.length);
  const tiers = src.columns?.tier ?? new Uint8Array(src.length);
  let nKeys = 0;
  const recent: number[] = [];
  // Per position: 0 not a candidate or decided one by one, 1 waiting in the heap, 2 irrelevant.
  const state = src.columns?.state ?? new Uint8Array(src.length);
  const cols = src.columns;
  for (let i = 0; i < src.length; i++) {
    let score: number;
    let tier: Tier;
    if (cols) {
      if (cols.candidate[i] !== 1) continue;
      score = cols.score[i] as number;
      if (cols.protectedFlag[i] === 1) {
        protect(i, score);
        continue;
      }
      tier = cols.tier[i] as Tier;
    } else {
      if (!src.isCandidate(i)) continue;
      score = src.score(i);
      if (src.isProtected(i)) {
        protect(i, score);
        continue;
      }
      tier = src.tier(i);
    }
    if (!cols) tiers[i] = tier;
    if (o.order === 'recent') {
      recent.push(i);
      continue;
    }
    if (tier === 4 && score < o.minOptionalScore) {
      state[i] = 2;
      continue;
    }
    state[i] = 1;
    const q = Math.min(SCORE_STEPS, Math.max(0, Math.round((1 - score) * SCORE_STEPS)));
    keys[nKeys++] = ((tier - 1) * 2 * SCORE_STEPS + q) * POSITION_SPAN + i;
  }
  included.sort((a, b) => (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  const overflow = Math.max(0, used - o.budget);

  const order = o.order === 'recent' ? recentFirst(src, recent) : undefined;
  const heap = order ? undefined : new KeyHeap(keys.subarray(0, nKeys));
  let cursor = 0;
  const next = (): number | undefined => (order ? order[cursor++] : heap && heap.length > 0 ? heap.pop() % POSITION_SPAN : undefined);

  let misses = 0;
  let i = next();
  for (; i !== undefined; i = next()) {
    if (o.target - used < MIN_BLOCK || misses >= MAX_MISSES) break;
    state[i] = 0;
    const item = src.item(i);
    const tier = tiers[i] as Tier;
    const score = src.score(i);
    const left = o.target - used;
    const { item: entryItem, tokens: t, clip } = clipOversized(item, src.tokens(i), o);
    if (t <= left) {
      used += t;
      misses = 0;
      if (clip) compressed.push(clip);
      included.push(lazyWhy({ item: entryItem, layer: layerOf(entryItem), tokens: t, score, tier }, { item, score, parts: src.parts(i) }, ''));
      continue;
    }
    if (tier <= 3 && left >= o.compressMinTokens + HEADER_ALLOWANCE) {
      const squeezed = compressText(entryItem.content, left - HEADER_ALLOWANCE, o.countText);
      const small = { ...item, content: squeezed.text, contentHash: contentHash(squeezed.text) };
      const to = o.tokens(small);
      if (squeezed.tokens > 0 && to <= left) {
        used += to;
        misses = 0;
        compressed.push({ itemId: item.id, from: src.tokens(i), to, method: 'extract' });
        included.push(lazyWhy({ item: small, layer: layerOf(small), tokens: to, score, tier }, { item, score, parts: src.parts(i) }, '; compressed to fit'));
        continue;
      }
    }
    misses++;
    dropped.push({ item, tokens: src.tokens(i), reason: `budget: needs ${t} tokens, ${Math.max(0, left)} left of ${o.target}`, score });
  }
  // The target is full: everything not yet decided is dropped, in no further order. Those and the
  // irrelevant ones are recorded by position and made into entries only if someone reads them.
  const log = new DroppedLog();
  log.push(dropped);
  const full = `budget: the target of ${o.target} tokens is full`;
  // What the log will keep is captured now, by item, never by position: a source may reuse its
  // score array for the next build, and the pool may renumber its slots (`[pool-compaction]`).
  // Tokens stay lazy (counted once per item value by `o.tokens`) until someone reads the entries.
  const entries = (positions: Int32Array, reason: string) => {
    const kept = Math.min(positions.length, log.room);
    const items: ContextItem[] = new Array(kept);
    const scores = new Float64Array(kept);
    for (let k = 0; k < kept; k++) {
      const p = positions[k] as number;
      items[k] = src.item(p);
      scores[k] = cols ? (cols.score[p] as number) : src.score(p);
    }
    return (limit: number) => items.slice(0, limit).map((item, k) => ({ item, tokens: o.tokens(item), reason, score: scores[k] as number }));
  };
  let nRest = i !== undefined && order ? 1 : 0;
  let nIrrelevant = 0;
  for (let p = 0; p < state.length; p++) {
    if (state[p] === 1) nRest++;
    else if (state[p] === 2) nIrrelevant++;
  }
  if (order) nRest += Math.max(0, order.length - cursor);
  const rest = new Int32Array(nRest);
  const irrelevant = new Int32Array(nIrrelevant);
  let r = 0;
  let v = 0;
  if (order && i !== undefined) rest[r++] = i;
  for (let p = 0; p < state.length; p++) {
    if (state[p] === 1) rest[r++] = p;
    else if (state[p] === 2) irrelevant[v++] = p;
  }
  if (order) for (; cursor < order.length; cursor++) rest[r++] = order[cursor] as number;
  log.defer(rest.length, entries(rest, full));
  log.defer(irrelevant.length, entries(irrelevant, lowRelevance));
  return {
    included,
    get dropped() {
      return log.all();
    },
    droppedLog: log,
    compressed,
    tokens: used,
    overflow,
  };
}

/**
 * An included entry whose `why` is worded only when read: a build includes hundreds of items and
 * most builds are never inspected. `why` is a getter on the prototype, so making an entry costs
 * no more than a plain object; readers (the inspector DTO, tests) see a string.
 */
class ScoredEntry implements IncludedEntry {
  #why: string | undefined;
  readonly #scored: ScoredItem;
  readonly #suffix: string;
  constructor(
    readonly item: ContextItem,
    readonly layer: IncludedEntry['layer'],
    readonly tokens: number,
    readonly score: number,
    readonly tier: Tier,
    scored: ScoredItem,
    suffix: string,
  ) {
    this.#scored = scored;
    this.#suffix = suffix;
  }

  get why(): string {
    return (this.#why ??= `${whyIncluded(this.#scored, this.tier)}${this.#suffix}`);
  }
}

function lazyWhy(entry: Omit<IncludedEntry, 'why'>, scored: ScoredItem, suffix: string): IncludedEntry {
  return new ScoredEntry(entry.item, entry.layer, entry.tokens, entry.score, entry.tier, scored, suffix);
}

/** Positions newest first, ties by position (the chronological strategies). */
function recentFirst(src: PackSource, positions: number[]): number[] {
  const at = (i: number) => src.item(i).provenance.at;
  return positions.sort((a, b) => at(b) - at(a) || a - b);
}
