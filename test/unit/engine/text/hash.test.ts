import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash, sha256Hex } from '../../../../engine/text/hash';

const nodeSha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

describe('sha256Hex is FIPS 180-4 SHA-256 of the UTF-8 bytes', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
  ])('FIPS example %j', (message, digest) => {
    expect(sha256Hex(message)).toBe(digest);
  });

  it('matches node:crypto at every padding boundary', () => {
    for (let length = 0; length <= 200; length++) {
      const s = 'x'.repeat(length);
      expect(sha256Hex(s), `length ${length}`).toBe(nodeSha256(s));
    }
  });

  it.each(['héllo 世界', '😀🎉', 'lone \ud800 high', 'lone \udc00 low', '\ufffd', '<|endoftext|>'])(
    'matches node:crypto on %j',
    (s) => {
      expect(sha256Hex(s)).toBe(nodeSha256(s));
    },
  );

  it('matches node:crypto on a 1 MB multi-block text', () => {
    const s = 'The quick brown 🦊 jumps over the lazy 犬.\n'.repeat(25_000);
    expect(sha256Hex(s)).toBe(nodeSha256(s));
  });
});

describe('contentHash is a deterministic 64-bit content key', () => {
  // Pinned values: the same on every run and platform. Changing the algorithm reorders L2 and
  // invalidates persisted keys, so it must be a deliberate edit of this table.
  it.each([
    ['', '8b62a60d4ac3ee6e'],
    ['a', '97c934797cdde44b'],
    ['hello world', '9a989030e092b82b'],
    ['😀', 'c7310fac9e857b3c'],
  ])('%j -> %s', (s, hash) => {
    expect(contentHash(s)).toBe(hash);
  });

  it('depends on every unit, on order and on length', () => {
    const distinct = ['ab', 'ba', 'a', 'a\u0000', '\u0000a', '\ud800', '\udc00', '\ufffd', 'abc'.repeat(1000)];
    expect(new Set(distinct.map(contentHash)).size).toBe(distinct.length);
    expect(contentHash('abc'.repeat(1000))).toBe(contentHash('abc'.repeat(1000)));
  });

  it('has no collision over 200,000 distinct short strings, and each 32-bit half spreads', () => {
    const strings = new Set<string>();
    for (let i = 0; i < 100_000; i++) strings.add(`item-${i}`);
    for (let i = 0; i < 65_536; i++) strings.add(String.fromCharCode(i));
    for (let i = 0; strings.size < 200_000; i++) strings.add(String.fromCharCode(i & 0xff, i >> 8));
    const full = new Set<string>();
    const high = new Set<string>();
    const low = new Set<string>();
    for (const s of strings) {
      const h = contentHash(s);
      full.add(h);
      high.add(h.slice(0, 8));
      low.add(h.slice(8));
    }
    expect(full.size).toBe(strings.size);
    // A uniform 32-bit hash expects about n^2 / 2^33 ≈ 4.7 collisions among 200k keys.
    expect(strings.size - high.size).toBeLessThan(40);
    expect(strings.size - low.size).toBeLessThan(40);
  });

  it('avalanches: changing one unit flips about half of the 64 bits', () => {
    let flipped = 0;
    const trials = 2000;
    for (let i = 0; i < trials; i++) {
      const a = BigInt(`0x${contentHash(`key ${i} tail`)}`);
      const b = BigInt(`0x${contentHash(`key ${i ^ 1} tail`)}`);
      flipped += (a ^ b).toString(2).split('1').length - 1;
    }
    expect(flipped / trials).toBeGreaterThan(30);
    expect(flipped / trials).toBeLessThan(34);
  });

  it('is linear in the length of the text', () => {
    const s = 'x'.repeat(2_000_000);
    expect(contentHash(s)).toMatch(/^[0-9a-f]{16}$/);
    expect(contentHash(s)).not.toBe(contentHash(s.slice(1)));
  });
});
