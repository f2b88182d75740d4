import type { DroppedEntry, Generation } from './Generation';

type Chunk = DroppedEntry[] | { count: number; make: (limit: number) => DroppedEntry[] };

/**
 * The dropped entries of a generation, recorded cheaply and made into entries only when read:
 * a fresh build over a 100k-item pool drops almost everything, and most builds never look at
 * what they dropped. Chunks keep their order; reading materializes and caches them.
 */
export class DroppedLog {
  private chunks: Chunk[] = [];
  private total = 0;

  get count(): number {
    return this.total;
  }

  push(entries: DroppedEntry[]): void {
    if (entries.length === 0) return;
    this.chunks.push(entries);
    this.total += entries.length;
  }

  /** Record `count` entries that `make` will produce on first read (the first `limit` of them). */
  defer(count: number, make: (limit: number) => DroppedEntry[]): void {
    if (count === 0) return;
    this.chunks.push({ count, make });
    this.total += count;
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
    if (this.total <= n) return;
    // Materialize only what is kept: a 100k-entry list is never built just to be cut.
    const kept: DroppedEntry[] = [];
    for (const c of this.chunks) {
      const want = n - kept.length;
      if (want <= 0) break;
      const entries = Array.isArray(c) ? c.slice(0, want) : c.make(want);
      for (const e of entries) kept.push(e);
    }
    this.chunks = [kept];
  }
}

const logs = new WeakMap<Generation, DroppedLog>();

/**
 * Give a live generation its log: `generation.dropped` then reads the log (materializing it) and
 * `droppedTotal` counts everything ever dropped, also after an ended generation is truncated.
 */
export function attachDroppedLog(g: Generation, log: DroppedLog): void {
  logs.set(g, log);
  Object.defineProperty(g, 'dropped', { enumerable: true, configurable: true, get: () => log.all() });
}

export function droppedLogOf(g: Generation): DroppedLog | undefined {
  return logs.get(g);
}

/** Define `dropped` on a snapshot as a lazy copy of the first `count` entries of the live list. */
export function lazyDroppedCopy(copy: Generation, live: Generation, count: number): void {
  let cached: DroppedEntry[] | undefined;
  Object.defineProperty(copy, 'dropped', {
    enumerable: true,
    configurable: true,
    get: () => (cached ??= live.dropped.slice(0, count)),
  });
}
