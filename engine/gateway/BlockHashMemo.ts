import type { RequestBlock } from './types';

/** What a block is apart from where it stands: its size, hash, role and breakpoint. */
export type BlockCore = Pick<RequestBlock, 'bytes' | 'hash'> & Partial<Pick<RequestBlock, 'role' | 'breakpoint'>>;

/**
 * The blocks of the values seen last (`[gateway-blocks]`): a thread's request repeats its previous
 * one but the newest messages, so without this every call would canonicalize and hash its whole
 * history again (about 6 ms for a 150k-token request). A value is looked up by its kind and its
 * exact text (`keyTextOf`: the slice of the body it was parsed from, else its JSON), of which its
 * block is a pure function, so a hit is the block the value would get anyway. Bounded by entries
 * (`max`) and by the characters of the texts held (`maxChars`), the least recently used dropped
 * first.
 */
export class BlockHashMemo {
  /** Per kind (a few), by key text, in least-recently-used order; `used` orders entries across kinds. */
  private readonly scopes = new Map<string, Map<string, { core: BlockCore; used: number }>>();
  private entries = 0;
  private chars = 0;
  private tick = 0;

  constructor(
    private readonly max = 8192,
    private readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** The block of the value of kind `scope` whose key text is `json`, made by `make` the first time. */
  blockOf(scope: string, json: string, make: () => BlockCore): BlockCore {
    let memo = this.scopes.get(scope);
    if (!memo) this.scopes.set(scope, (memo = new Map()));
    const known = memo.get(json);
    if (known !== undefined) {
      memo.delete(json);
      known.used = ++this.tick;
      memo.set(json, known);
      return known.core;
    }
    const core = make();
    if (json.length > this.maxChars) return core;
    // A slice of a request body would hold the whole body in memory: keep a copy of its own.
    memo.set(`${json} `.slice(0, -1), { core, used: ++this.tick });
    this.entries += 1;
    this.chars += json.length;
    while (this.entries > this.max || this.chars > this.maxChars) this.dropOldest();
    return core;
  }

  private dropOldest(): void {
    let oldest: { memo: Map<string, { used: number }>; json: string; used: number } | undefined;
    for (const memo of this.scopes.values()) {
      const first = memo.entries().next().value;
      if (first && (!oldest || first[1].used < oldest.used)) oldest = { memo, json: first[0], used: first[1].used };
    }
    oldest!.memo.delete(oldest!.json);
    this.entries -= 1;
    this.chars -= oldest!.json.length;
  }

  get size(): number {
    return this.entries;
  }

  /** Characters of the key texts held (the memo's memory is about twice this in bytes at most). */
  get heldChars(): number {
    return this.chars;
  }
}
