/**
 * A binary min-heap of numbers in a Float64Array, built in O(n). Packing pops only the candidates
 * it needs instead of sorting the whole pool.
 */
export class KeyHeap {
  private size: number;

  constructor(private readonly keys: Float64Array) {
    this.size = keys.length;
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get length(): number {
    return this.size;
  }

  pop(): number {
    const k = this.keys;
    const top = k[0] as number;
    this.size--;
    if (this.size > 0) {
      k[0] = k[this.size] as number;
      this.down(0);
    }
    return top;
  }

  /** The keys still in the heap, in heap order (for the remainder nobody needs sorted). */
  rest(): Float64Array {
    return this.keys.subarray(0, this.size);
  }

  private down(i: number): void {
    const k = this.keys;
    const n = this.size;
    const v = k[i] as number;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && (k[r] as number) < (k[l] as number) ? r : l;
      if ((k[c] as number) >= v) break;
      k[i] = k[c] as number;
      i = c;
    }
    k[i] = v;
  }
}
