import type { ContextItem } from '../items/ContextItem';
import type { RetrieveRequest } from './RetrieveRequest';
import { prepareQuery, scoreItem, type ScoreParts } from './score';

export interface ScoredItem {
  item: ContextItem;
  score: number;
  parts: ScoreParts;
}

/**
 * Score every item of the pool against the request, afresh on every build (`[score-fresh]`), by
 * keyword/file/symbol overlap, recency, confidence, durability, role and phase; no vector index.
 * Highest score first, ties by id, so the same pool and request always give the same order.
 */
export function retrieve(pool: Iterable<ContextItem>, request: RetrieveRequest): ScoredItem[] {
  const q = prepareQuery(request);
  const out: ScoredItem[] = [];
  for (const item of pool) {
    const { score, parts } = scoreItem(item, q);
    out.push({ item, score, parts });
  }
  out.sort((a, b) => b.score - a.score || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return out;
}
