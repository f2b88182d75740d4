import { clipHeadTail } from '../compress/clipHeadTail';
import { compressText } from '../compress/compressText';
import type { ContextItem } from '../items/ContextItem';
import { tierOf } from '../items/tiers';
import type { CompressedEntry, DroppedEntry, IncludedEntry } from '../generations/Generation';
import { contentHash } from '../text/hash';
import type { ScoredItem } from '../retrieve/retrieve';
import { layerOf } from '../prompt/layerOf';
import { whyIncluded } from './whyIncluded';

export interface PackOptions {
  /** The agent's budget (not the model's window: `[budget-not-window]`). */
  budget: number;
  /** Fill at most this many tokens with non-mandatory content. */
  target: number;
  /** Tier-4 (optional) items scoring below this are left out as irrelevant. */
  minOptionalScore: number;
  /** Clip non-mandatory items above this size to head/tail (absent: never clip). */
  maxItemTokens?: number;
  /** Compress tier 1-3 items that do not fit whole, when at least this many tokens remain. */
  compressMinTokens: number;
  /** `score`: tier then score; `recent`: newest first (chronological strategies). */
  order: 'score' | 'recent';
  /** Tokens of an item as rendered into the prompt. */
  tokens(item: ContextItem): number;
  /** Tokens of free text (for clipping and compressing content). */
  countText(text: string): number;
}

/** Room the rendered header of a block (title, evidence, files) takes beyond its content. */
const HEADER_ALLOWANCE = 32;

export interface PackResult {
  included: IncludedEntry[];
  dropped: DroppedEntry[];
  compressed: CompressedEntry[];
  /** Item tokens included (without prompt framing). */
  tokens: number;
  overflow: number;
}

const byId = (a: ContextItem, b: ContextItem) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Pack scored candidates into the budget by priority tier (`[tiers]`). Pinned and mandatory items
 * always enter whole and may overflow the budget, which is recorded (`[pin-never-clipped]`,
 * `[overflow-recorded]`); the rest fill up to `target`, oversized ones clipped head/tail, tier 1-3
 * ones compressed when they do not fit whole, everything else dropped with a reason.
 */
export function pack(candidates: readonly ScoredItem[], o: PackOptions): PackResult {
  const included: IncludedEntry[] = [];
  const dropped: DroppedEntry[] = [];
  const compressed: CompressedEntry[] = [];
  const tokensOf = o.tokens;

  let used = 0;
  const rest: ScoredItem[] = [];
  for (const c of candidates) {
    if (c.item.pinned || c.item.mandatory) {
      const t = tokensOf(c.item);
      used += t;
      included.push({ item: c.item, layer: layerOf(c.item), tokens: t, score: c.score, tier: 1, why: whyIncluded(c, 1) });
    } else rest.push(c);
  }
  included.sort((a, b) => byId(a.item, b.item));
  const overflow = Math.max(0, used - o.budget);

  const tiered = rest.map((c) => ({ c, tier: tierOf(c.item) }));
  if (o.order === 'score') tiered.sort((a, b) => a.tier - b.tier || b.c.score - a.c.score || byId(a.c.item, b.c.item));
  else tiered.sort((a, b) => b.c.item.provenance.at - a.c.item.provenance.at || byId(a.c.item, b.c.item));

  for (const { c, tier } of tiered) {
    const item = c.item;
    if (tier === 4 && o.order === 'score' && c.score < o.minOptionalScore) {
      dropped.push({ item, tokens: tokensOf(item), reason: `low relevance: score ${c.score.toFixed(2)} < ${o.minOptionalScore} for optional material` });
      continue;
    }
    const left = o.target - used;
    let t = tokensOf(item);
    let entryItem = item;
    if (o.maxItemTokens !== undefined && t > o.maxItemTokens && t > 0) {
      const clipped = clipHeadTail(item.content, Math.max(1, o.maxItemTokens - HEADER_ALLOWANCE), o.countText);
      entryItem = { ...item, content: clipped.text, contentHash: contentHash(clipped.text) };
      const to = tokensOf(entryItem);
      compressed.push({ itemId: item.id, from: t, to, method: 'clip' });
      t = to;
    }
    if (t <= left) {
      used += t;
      included.push({ item: entryItem, layer: layerOf(entryItem), tokens: t, score: c.score, tier, why: whyIncluded(c, tier) });
      continue;
    }
    if (tier <= 3 && left >= o.compressMinTokens + HEADER_ALLOWANCE) {
      const squeezed = compressText(entryItem.content, left - HEADER_ALLOWANCE, o.countText);
      const small = { ...item, content: squeezed.text, contentHash: contentHash(squeezed.text) };
      const to = tokensOf(small);
      if (squeezed.tokens > 0 && to <= left) {
        const previous = compressed.findIndex((e) => e.itemId === item.id);
        if (previous >= 0) compressed.splice(previous, 1);
        compressed.push({ itemId: item.id, from: tokensOf(item), to, method: 'extract' });
        used += to;
        included.push({ item: small, layer: layerOf(small), tokens: to, score: c.score, tier, why: `${whyIncluded(c, tier)}; compressed to fit` });
        continue;
      }
    }
    const previous = compressed.findIndex((e) => e.itemId === item.id);
    if (previous >= 0) compressed.splice(previous, 1);
    dropped.push({ item, tokens: tokensOf(item), reason: `budget: needs ${t} tokens, ${Math.max(0, left)} left of ${o.target}` });
  }
  return { included, dropped, compressed, tokens: used, overflow };
}
