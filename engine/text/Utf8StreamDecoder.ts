/**
 * A streaming UTF-8 decoder for the pure core, which has no `TextDecoder` (no DOM, no Node). It
 * follows the WHATWG Encoding Standard's UTF-8 decoder step by step, so it returns exactly what
 * `new TextDecoder('utf-8').decode(bytes, { stream })` returns for the same pieces: a sequence cut
 * between two pieces is held until its last byte comes, an invalid byte or cut-off sequence
 * becomes U+FFFD, and a byte order mark at the start is dropped.
 */
export class Utf8StreamDecoder {
  private codePoint = 0;
  private needed = 0;
  private seen = 0;
  private lower = 0x80;
  private upper = 0xbf;
  private started = false;

  /** The text of `bytes` after what came before; `stream: false` (the default) also ends the stream. */
  decode(bytes: Uint8Array = new Uint8Array(0), options: { stream?: boolean } = {}): string {
    const units: number[] = [];
    let out = '';
    const emit = (cp: number) => {
      if (cp > 0xffff) {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else units.push(cp);
      if (units.length >= 8192) {
        out += String.fromCharCode(...units);
        units.length = 0;
      }
    };
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.needed === 0 && b <= 0x7f) {
        // A run of ASCII is copied in one call: prompts and event streams are mostly ASCII.
        let end = i + 1;
        while (end < bytes.length && bytes[end]! <= 0x7f) end++;
        if (units.length > 0) {
          out += String.fromCharCode(...units);
          units.length = 0;
        }
        for (let at = i; at < end; at += 8192) out += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(end, at + 8192)) as unknown as number[]);
        i = end - 1;
        continue;
      }
      if (this.needed === 0) {
        if (b <= 0x7f) emit(b);
        else if (b >= 0xc2 && b <= 0xdf) this.begin(1, b & 0x1f);
        else if (b >= 0xe0 && b <= 0xef) {
          if (b === 0xe0) this.lower = 0xa0;
          if (b === 0xed) this.upper = 0x9f;
          this.begin(2, b & 0x0f);
        } else if (b >= 0xf0 && b <= 0xf4) {
          if (b === 0xf0) this.lower = 0x90;
          if (b === 0xf4) this.upper = 0x8f;
          this.begin(3, b & 0x07);
        } else emit(0xfffd);
        continue;
      }
      if (b < this.lower || b > this.upper) {
        this.reset();
        emit(0xfffd);
        i--; // The byte starts over as the first of a new sequence.
        continue;
      }
      this.lower = 0x80;
      this.upper = 0xbf;
      this.codePoint = (this.codePoint << 6) | (b & 0x3f);
      if (++this.seen === this.needed) {
        const cp = this.codePoint;
        this.reset();
        emit(cp);
      }
    }
    if (!options.stream && this.needed !== 0) {
      this.reset();
      emit(0xfffd);
    }
    out += String.fromCharCode(...units);
    if (!this.started && out.length > 0) {
      this.started = true;
      if (out.charCodeAt(0) === 0xfeff) out = out.slice(1);
    }
    if (!options.stream) this.started = false;
    return out;
  }

  private begin(needed: number, bits: number): void {
    this.needed = needed;
    this.codePoint = bits;
  }

  private reset(): void {
    this.codePoint = 0;
    this.needed = 0;
    this.seen = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }
}
