import { contentHash, sha256Hex } from '../text/hash';

/**
 * The SHA-256 of block texts, remembered for the texts seen last (`[gateway-blocks]`): a thread's
 * request repeats its previous one but the newest blocks, so without this every call would hash
 * its whole history again (about 25 ms for a 150k-token request in the pure SHA-256). A text is
 * looked up by its fast 64-bit `contentHash` and length; a collision would only mislabel a
 * block's hash, never change what goes upstream. At most `max` entries, least recently used
 * dropped first.
 */
export class BlockHashMemo {
  private readonly memo = new Map<string, string>();

  constructor(private readonly max = 8192) {}

  sha256(text: string): string {
    const key = `${contentHash(text)}:${text.length}`;
    const known = this.memo.get(key);
    if (known !== undefined) {
      this.memo.delete(key);
      this.memo.set(key, known);
      return known;
    }
    const hash = sha256Hex(text);
    this.memo.set(key, hash);
    if (this.memo.size > this.max) this.memo.delete(this.memo.keys().next().value!);
    return hash;
  }

  get size(): number {
    return this.memo.size;
  }
}
