import type { DroppedEntry } from './entries';

/** Dropped entries an ended generation keeps for the inspector. */
export const DROPPED_KEPT = 500;

type Chunk = DroppedEntry[] | { count: number; make: (limit: number) => DroppedEntry[] };

/**
 * The dropped entries of a generation, recorded cheaply and made into entries only when read:
 * a fresh build over a 100k-item pool drops almost everything, and most builds never look at
 * what they dropped. Chunks keep their order; reading materializes and caches them.
 *
 * A log keeps at most `limit` entries (the first ones: the boundary's own pack decisions come
 * first) and counts the rest (`[bounded-history]`): a generation that lives for thousands of builds
 * in a busy shared pool drops other agents' material on every build, and keeping each of those
 * entries grew a 50-agent soak's heap by about 10 MiB per 1,000 turns.
 */
export class DroppedLog {
  private chunks: Chunk[] = [];
  private total = 0;
  /** Entries the chunks hold (or will make), never more than `limit`. */
  private stored = 0;

  constructor(private readonly limit: number = DROPPED_KEPT) {}

  get count(): number {
    return this.total;
  }

  /** Entries the log would still keep; a deferred chunk needs to capture no more than this. */
  get room(): number {
    return Math.max(0, this.limit - this.stored);
  }

  push(entries: DroppedEntry[]): void {
    if (entries.length === 0) return;
    this.total += entries.length;
    const room = this.limit - this.stored;
    if (room <= 0) return;
    const kept = entries.length <= room ? entries : entries.slice(0, room);
    this.chunks.push(kept);
    this.stored += kept.length;
  }

  /** Record `count` entries that `make` will produce on first read (the first `limit` of them). */
  defer(count: number, make: (limit: number) => DroppedEntry[]): void {
    if (count === 0) return;
    this.total += count;
    const room = this.limit - this.stored;
    if (room <= 0) return;
    const kept = Math.min(count, room);
    this.chunks.push({ count: kept, make });
    this.stored += kept;
  }

  /** Every entry, in order (materialized once). */
  all(): DroppedEntry[] {
    if (this.chunks.length === 1 && Array.isArray(this.chunks[0])) return this.chunks[0];
    const out: DroppedEntry[] = [];
    for (const c of this.chunks) {
      const entries = Array.isArray(c) ? c : c.make(c.count);
      for (const e of entries) out.push(e);
    }
    this.chunks = [out];
    return out;
  }

  /** Keep only the first `n` entries (an ended generation keeps a sample; the count stays). */
  truncate(n: number): void {
    if (this.stored <= n) return;
    // Materialize only what is kept: a 100k-entry list is never built just to be cut.
    const kept: DroppedEntry[] = [];
    for (const c of this.chunks) {
      const want = n - kept.length;
      if (want <= 0) break;
      const entries = Array.isArray(c) ? c.slice(0, want) : c.make(want);
      for (const e of entries) kept.push(e);
    }
    this.chunks = [kept];
    this.stored = kept.length;
  }
}
