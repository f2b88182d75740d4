import { describe, expect, it } from 'vitest';
import { commonPrefixBytes, utf8Encode, utf8Length } from '../../../../engine/text/utf8';

const encoder = new TextEncoder();

/** The definition: walk both encodings byte by byte. */
function referenceLcp(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let k = 0;
  while (k < x.length && k < y.length && x[k] === y[k]) k++;
  return k;
}

/** A deterministic generator (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces chosen to hit every encoding length and every surrogate edge, including units whose
// encodings share leading bytes (é/è, 世/丗, two emoji with one high surrogate).
const PIECES = [
  'a', 'b', 'z', '\n', '\u007f', '\u0080', 'é', 'è', '\u07ff', '\u0800', '世', '丗', '界', '\uffff',
  '\ufffd', '😀', '😁', '🎉', '\u{10ffff}', '\u{10000}', '\ud800', '\udbff', '\udc00', '\udfff',
  '\ud83d', '\ude00',
];

function randomString(next: () => number, maxPieces: number): string {
  let s = '';
  const n = Math.floor(next() * maxPieces);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)]!;
  return s;
}

describe('utf8Length and utf8Encode match TextEncoder', () => {
  it.each([
    ['', 0],
    ['hello', 5],
    ['é', 2],
    ['世界', 6],
    ['😀', 4],
    ['\ud800', 3],
    ['\udc00', 3],
    ['\udc00\ud800', 6],
    ['\ud83d\ude00\ud83d', 7],
    ['a\ud83dz', 5],
  ])('%j is %d bytes', (s, bytes) => {
    expect(utf8Length(s)).toBe(bytes);
    expect(utf8Encode(s)).toEqual(encoder.encode(s));
  });

  it('agrees on every BMP unit and on 2,000 random strings', () => {
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const s = String.fromCharCode(unit);
      ours.push(utf8Length(s));
      theirs.push(encoder.encode(s).length);
    }
    expect(ours).toEqual(theirs);
    const next = rng(1);
    for (let i = 0; i < 2000; i++) {
      const s = randomString(next, 40);
      expect(utf8Encode(s)).toEqual(encoder.encode(s));
      expect(utf8Length(s)).toBe(encoder.encode(s).length);
    }
  });
});

describe('commonPrefixBytes is the byte-level LCP of the two encodings', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 0],
    ['abc', 'abc', 3],
    ['abc', 'abd', 2],
    ['abc', 'abcdef', 3],
    ['é', 'è', 1],
    ['世', '丗', 2],
    ['😀', '😁', 3],
    ['x😀', 'x🎉', 3],
    ['\ud83d', '\ud83d\ude00', 0],
    ['a\ud83d', 'a\ud83d\ude00', 1],
    ['a\ud83dz', 'a\ud83d\ude00', 1],
    ['a\ud83dz', 'a\ud83dy', 4],
    ['\ud800x', '\ud801x', 4],
    ['\udc00\udc01z', '\udfff\ufffdz', 7],
    ['\ufffd', '\ud800', 3],
    ['\ud800', '\ud800', 3],
  ])('%j vs %j -> %d', (a, b, bytes) => {
    expect(referenceLcp(a, b)).toBe(bytes);
    expect(commonPrefixBytes(a, b)).toBe(bytes);
    expect(commonPrefixBytes(b, a)).toBe(bytes);
  });

  it('agrees with the byte-by-byte reference on 20,000 random pairs sharing a prefix', () => {
    const next = rng(42);
    for (let i = 0; i < 20_000; i++) {
      const shared = randomString(next, 12);
      const a = shared + randomString(next, 6);
      const b = shared + randomString(next, 6);
      expect(commonPrefixBytes(a, b), JSON.stringify([a, b])).toBe(referenceLcp(a, b));
    }
  });

  it('handles 500 KB prompts', () => {
    const block = 'const x = "héllo 世界 😀";\n';
    const base = block.repeat(Math.ceil(500_000 / block.length));
    const changed = `${base.slice(0, base.length - 10)}世${base.slice(base.length - 9)}`;
    expect(commonPrefixBytes(base, changed)).toBe(referenceLcp(base, changed));
    expect(commonPrefixBytes(base, base)).toBe(utf8Length(base));
    expect(commonPrefixBytes(base, `${base}tail`)).toBe(utf8Length(base));
  });
});
