/**
 * Capture of a command's output within a byte cap, keeping its head and its tail (where test
 * runners print their summary) and eliding the middle with a marker that says how much was left out.
 * Memory stays O(cap) whatever the command writes.
 */

/** Bytes of the cap kept for the elision marker, so head + marker + tail stays within the cap. */
const MARKER_RESERVE = 160;
/** A cut moves to a line end when one lies within this fraction of the kept part. */
const SNAP_FRACTION = 0.2;

export interface CapturedOutput {
  text: string;
  /** Bytes written in all. */
  totalBytes: number;
  truncated: boolean;
}

export class HeadTailCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly limit: number) {
    const usable = Math.max(2, limit - MARKER_RESERVE);
    this.headLimit = Math.floor(usable / 2);
    this.tailLimit = usable - this.headLimit;
  }

  get totalBytes(): number {
    return this.total;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(rest.length, this.headLimit - this.headBytes);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Drop whole chunks the tail no longer needs (trimmed exactly in `finish`).
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Buffer).length >= this.tailLimit) {
      this.tailBytes -= (this.tail.shift() as Buffer).length;
    }
  }

  finish(): CapturedOutput {
    const head = Buffer.concat(this.head);
    const tailAll = Buffer.concat(this.tail);
    if (this.total <= this.limit) {
      return { text: Buffer.concat([head, tailAll]).toString('utf8'), totalBytes: this.total, truncated: false };
    }
    const headKept = snapHeadEnd(head);
    const tailKept = snapTailStart(tailAll.subarray(Math.max(0, tailAll.length - this.tailLimit)));
    const elided = this.total - headKept.length - tailKept.length;
    const marker = `\n[… ${elided} bytes of output elided (${this.total} bytes in all; max_output_bytes = ${this.limit}) …]\n`;
    return { text: `${headKept.toString('utf8')}${marker}${tailKept.toString('utf8')}`, totalBytes: this.total, truncated: true };
  }
}

/** The head cut on a character boundary, and after a line end when one is near. */
function snapHeadEnd(head: Buffer): Buffer {
  let end = head.length;
  // Back off an incomplete UTF-8 sequence at the cut.
  let i = end - 1;
  while (i >= 0 && end - i <= 4 && ((head[i] as number) & 0xc0) === 0x80) i--;
  if (i >= 0) {
    const lead = head[i] as number;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - i < need) end = i;
  }
  const nl = head.lastIndexOf(10, end - 1);
  if (nl >= 0 && end - (nl + 1) <= head.length * SNAP_FRACTION) end = nl + 1;
  return head.subarray(0, end);
}

/** The tail started on a character boundary, and after a line end when one is near. */
function snapTailStart(tail: Buffer): Buffer {
  let start = 0;
  while (start < tail.length && start < 4 && ((tail[start] as number) & 0xc0) === 0x80) start++;
  const nl = tail.indexOf(10, start);
  if (nl >= 0 && nl + 1 - start <= tail.length * SNAP_FRACTION) start = nl + 1;
  return tail.subarray(start);
}
