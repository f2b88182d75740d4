/**
 * Content hashes for the engine: SHA-256 for values that leave the process (prefix hashes,
 * catalog keys) and a fast 64-bit hash for in-memory memoization and stable ordering. Both are
 * written here because the engine may not use Node's crypto or the DOM's SubtleCrypto.
 */
import { utf8Encode } from './utf8';

// FIPS 180-4 §4.2.2: first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// FIPS 180-4 §5.3.3: first 32 bits of the fractional parts of the square roots of the first 8 primes.
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
const hex32 = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');

/** The message padded to a multiple of 64 bytes with the 0x80 marker and the 64-bit bit length. */
function pad(message: Uint8Array): Uint8Array {
  const length = Math.ceil((message.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(message);
  padded[message.length] = 0x80;
  // The bit length can exceed 2^32, so its high word comes from a division, not a shift.
  const high = Math.floor(message.length / 0x20000000);
  const low = (message.length * 8) >>> 0;
  for (let k = 0; k < 4; k++) {
    padded[length - 8 + k] = high >>> (24 - 8 * k);
    padded[length - 4 + k] = low >>> (24 - 8 * k);
  }
  return padded;
}

/**
 * SHA-256 (FIPS 180-4) of the UTF-8 bytes of `s`, as 64 lowercase hex characters. It equals
 * `createHash('sha256').update(s, 'utf8').digest('hex')`, so hashes the engine stores can be
 * checked by any other tool.
 */
export function sha256Hex(s: string): string {
  const data = pad(utf8Encode(s));
  const h = Int32Array.from(H0);
  const w = new Int32Array(64);
  for (let block = 0; block < data.length; block += 64) {
    for (let t = 0, at = block; t < 16; t++, at += 4) {
      w[t] = (data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15]!;
      const w2 = w[t - 2]!;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let hh = h[7]!;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  return Array.from(h, hex32).join('');
}

/** Final avalanche: a bijection on 32 bits in which every input bit flips about half the output. */
function finish(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * A fast, non-cryptographic 64-bit hash of `s`'s UTF-16 code units, as 16 lowercase hex
 * characters. Deterministic across runs, processes and platforms (integer arithmetic only, no
 * seed), so memoized token counts and the content-hash order of L2 stay stable. Two independent
 * 32-bit lanes, each with a different multiplier and a feedback from high to low bits on every
 * unit, make an accidental collision about a 2^-64 event; never use it against an adversary.
 */
export function contentHash(s: string): string {
  let h1 = 0x3b9a73c5 ^ s.length;
  let h2 = Math.imul(0x5f356495 ^ s.length, 0x2545f491);
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 0x9e3779b1);
    h1 ^= h1 >>> 16;
    h2 = Math.imul(h2 + Math.imul(unit, 0x85ebca77), 0xc2b2ae3d);
    h2 = (h2 << 13) | (h2 >>> 19);
  }
  const high = finish(h1);
  // Folding the first lane into the second keeps the output a bijection of the (h1, h2) state.
  const low = finish(h2 ^ high);
  return hex32(high) + hex32(low);
}
