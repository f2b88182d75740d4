import type { ContextItem } from '../items/ContextItem';
import type { TokenCounter } from '../tokens/TokenCounter';
import { contentHash } from '../text/hash';
import { renderItem } from './renderItem';

/**
 * Tokens of an item as rendered into the prompt (title, evidence line and content), so budgets
 * count what is really sent. Cached per item object: items are immutable, a changed item is a new
 * object, and a rebuild of an unchanged pool tokenizes nothing new (`[tokens-memo]`).
 */
export class BlockCounter {
  private readonly byItem = new WeakMap<ContextItem, { block: string; tokens: number }>();

  constructor(readonly counter: TokenCounter) {}

  rendered(item: ContextItem): { block: string; tokens: number } {
    let r = this.byItem.get(item);
    if (!r) {
      const block = renderItem(item);
      r = { block, tokens: this.counter.count(block, contentHash(block)) };
      this.byItem.set(item, r);
    }
    return r;
  }

  tokens(item: ContextItem): number {
    return this.rendered(item).tokens;
  }

  /** Tokens of free text (L0, L3, framing), memoized by content hash. */
  text(s: string): number {
    return s ? this.counter.count(s) : 0;
  }
}
