import { contentHash } from '../text/hash';
import type { Tokenizer } from './Tokenizer';

/** How a `TokenCounter` answered so far: `misses` is the number of texts actually tokenized. */
export interface TokenCountStats {
  hits: number;
  misses: number;
}

/** Entries kept by default: enough for every item of a long multi-agent run, a few MB of memory. */
const DEFAULT_MAX_TOKEN_COUNT_ENTRIES = 200_000;

/**
 * A `Tokenizer` memoized by content hash. The invariant the engine relies on: counting content
 * that was counted before tokenizes nothing new (`stats.misses` does not move), so rebuilding a
 * generation from unchanged items costs hash lookups, not BPE passes. Entries are evicted least
 * recently used first once `maxEntries` is reached, which only costs a re-count later.
 */
export class TokenCounter {
  readonly #tokenizer: Tokenizer;
  readonly #maxEntries: number;
  readonly #counts = new Map<string, number>();
  #hits = 0;
  #misses = 0;

  /** Throws a `RangeError` (and builds nothing) unless `maxEntries` is a positive integer. */
  constructor(tokenizer: Tokenizer, maxEntries: number = DEFAULT_MAX_TOKEN_COUNT_ENTRIES) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`TokenCounter maxEntries must be a positive integer, got ${String(maxEntries)}`);
    }
    this.#tokenizer = tokenizer;
    this.#maxEntries = maxEntries;
  }

  /** The wrapped tokenizer's encoding, so figures say what units they are in. */
  get encoding(): string {
    return this.#tokenizer.encoding;
  }

  /** A snapshot of the hit and miss counts since construction. */
  get stats(): Readonly<TokenCountStats> {
    return { hits: this.#hits, misses: this.#misses };
  }

  /**
   * Tokens in `text`. Pass `hash` when the caller already holds `contentHash(text)` (a ContextItem
   * does) to skip hashing; it must be exactly that value, or another text's count is returned.
   */
  count(text: string, hash: string = contentHash(text)): number {
    const cached = this.#counts.get(hash);
    if (cached !== undefined) {
      this.#hits++;
      // Re-inserting moves the entry to the end of the Map's insertion order: most recently used.
      this.#counts.delete(hash);
      this.#counts.set(hash, cached);
      return cached;
    }
    const tokens = this.#tokenizer.count(text);
    this.#misses++;
    if (this.#counts.size >= this.#maxEntries) {
      const oldest = this.#counts.keys().next();
      if (!oldest.done) this.#counts.delete(oldest.value);
    }
    this.#counts.set(hash, tokens);
    return tokens;
  }

  /** Number of memoized counts currently held (at most `maxEntries`). */
  size(): number {
    return this.#counts.size;
  }
}
