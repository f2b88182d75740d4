/**
 * UTF-8 arithmetic over JavaScript strings without TextEncoder, so the engine stays free of DOM and
 * Node. Every function here agrees byte for byte with the WHATWG encoder: a surrogate pair is one
 * 4-byte code point and a lone surrogate is encoded as U+FFFD (3 bytes).
 */

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

const NON_ASCII_RUNS = /[^\x00-\x7f]+/g;

/** Bytes of the UTF-8 encoding of `s.slice(from, end)`, read in place. */
function utf8LengthOfRange(s: string, from: number, end: number): number {
  if (end - from <= 64) return utf8LengthByUnits(s, from, end);
  // Prompts are mostly ASCII: a native scan finds the non-ASCII runs, everything else is 1 byte per unit.
  const part = from === 0 && end === s.length ? s : s.slice(from, end);
  let bytes = part.length;
  NON_ASCII_RUNS.lastIndex = 0;
  for (let m = NON_ASCII_RUNS.exec(part); m; m = NON_ASCII_RUNS.exec(part)) {
    bytes += utf8LengthByUnits(part, m.index, m.index + m[0].length) - m[0].length;
  }
  return bytes;
}

function utf8LengthByUnits(s: string, from: number, end: number): number {
  let bytes = 0;
  for (let i = from; i < end; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHigh(unit) && i + 1 < end && isLow(s.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Number of bytes in the UTF-8 encoding of `s`, equal to `new TextEncoder().encode(s).length`
 * (lone surrogates count as U+FFFD, 3 bytes). Prompt sizes and prefix reuse are defined in bytes
 * (DESIGN.md "Metrics"), so this must never drift from the real encoding.
 */
export function utf8Length(s: string): number {
  return utf8LengthOfRange(s, 0, s.length);
}

/** The code point the encoder emits for the unit at `i`, and how many units it consumes. */
function codePointAt(s: string, i: number): { cp: number; units: number } {
  const unit = s.charCodeAt(i);
  if (isHigh(unit) && i + 1 < s.length) {
    const next = s.charCodeAt(i + 1);
    if (isLow(next)) return { cp: 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00), units: 2 };
  }
  return { cp: isHigh(unit) || isLow(unit) ? 0xfffd : unit, units: 1 };
}

/** Writes the UTF-8 bytes of `cp` at `out[at]` and returns the next free index. */
function writeCodePoint(cp: number, out: Uint8Array, at: number): number {
  if (cp < 0x80) {
    out[at] = cp;
    return at + 1;
  }
  if (cp < 0x800) {
    out[at] = 0xc0 | (cp >> 6);
    out[at + 1] = 0x80 | (cp & 0x3f);
    return at + 2;
  }
  if (cp < 0x10000) {
    out[at] = 0xe0 | (cp >> 12);
    out[at + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[at + 2] = 0x80 | (cp & 0x3f);
    return at + 3;
  }
  out[at] = 0xf0 | (cp >> 18);
  out[at + 1] = 0x80 | ((cp >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((cp >> 6) & 0x3f);
  out[at + 3] = 0x80 | (cp & 0x3f);
  return at + 4;
}

/**
 * The UTF-8 encoding of `s`, identical to `new TextEncoder().encode(s)` (lone surrogates become
 * EF BF BD). Hashes are defined over these bytes, so they must match what other tools compute.
 */
export function utf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  let at = 0;
  // Inlined rather than calling codePointAt: this loop runs once per unit of every hashed prompt.
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (isHigh(cp) && isLow(next)) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else cp = 0xfffd;
    }
    at = writeCodePoint(cp, out, at);
  }
  return out;
}

/** The UTF-8 bytes of the code point starting at unit `i`, or none past the end. */
function bytesAt(s: string, i: number): Uint8Array {
  if (i >= s.length) return new Uint8Array(0);
  const out = new Uint8Array(4);
  return out.subarray(0, writeCodePoint(codePointAt(s, i).cp, out, 0));
}

/**
 * Length in bytes of the longest common prefix of `utf8Encode(a)` and `utf8Encode(b)`, without
 * encoding either string, so a 500 KB prompt costs one pass over its UTF-16 units. Prefix reuse is
 * defined on bytes (DESIGN.md "Metrics"), which differs from comparing units in three places: two
 * code points can share leading bytes (é = C3 A9, è = C3 A8); a shared high surrogate encodes
 * differently when only one string pairs it with a low surrogate; and two different lone
 * surrogates both encode as U+FFFD, so the bytes keep matching past them.
 */
const CHUNK = 512;

export function commonPrefixBytes(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let bytes = 0;
  let from = 0;
  for (;;) {
    let i = from;
    // Skip equal chunks with native comparisons, then find the first different unit.
    while (i + CHUNK <= limit && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
    while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    // A shared high surrogate right before the divergence belongs to the diverging code point when
    // either string pairs it; otherwise it is a lone U+FFFD in both and stays in the common part.
    if (i > from && isHigh(a.charCodeAt(i - 1)) && (isLow(a.charCodeAt(i)) || isLow(b.charCodeAt(i)))) i--;
    bytes += utf8LengthOfRange(a, from, i);
    const x = bytesAt(a, i);
    const y = bytesAt(b, i);
    let k = 0;
    while (k < x.length && k < y.length && x[k] === y[k]) k++;
    // Equal non-empty encodings of different units can only be two U+FFFD, one unit in each string.
    if (k === 0 || k < x.length || k < y.length) return bytes + k;
    bytes += k;
    from = i + 1;
  }
}
