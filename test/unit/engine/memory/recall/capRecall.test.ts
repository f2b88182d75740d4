import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capRecall, RECALL_LIMIT, RECALL_MAX_BYTES, RECALL_MAX_TOKENS } from '../../../../../engine/memory/recall/capRecall';
import { utf8Length } from '../../../../../engine/text/utf8';
import { estimateTokens } from '../../../../../engine/tokens/estimateTokens';

/** An entry of exactly `bytes` UTF-8 bytes (ASCII), named so order can be checked. */
const e = (name: string, bytes: number) => ({ name, text: 'x'.repeat(bytes) });
const names = (xs: readonly { name: string }[]) => xs.map((x) => x.name);
const totals = (xs: readonly { text: string }[]) => ({
  tokens: xs.reduce((n, x) => n + estimateTokens(x.text), 0),
  bytes: xs.reduce((n, x) => n + utf8Length(x.text), 0),
});

describe('capRecall', () => {
  it('[recall-cap] the bounds are 300 estimated tokens, 1200 bytes and 4 entries', () => {
    expect([RECALL_MAX_TOKENS, RECALL_MAX_BYTES, RECALL_LIMIT]).toEqual([300, 1200, 4]);
  });

  it.each([
    ['all fit, order kept', [e('a', 100), e('b', 200), e('c', 300)], ['a', 'b', 'c']],
    ['one entry of exactly 1200 bytes (300 tokens) fits', [e('a', 1200)], ['a']],
    ['one entry of 1201 bytes is skipped, never cut', [e('a', 1201)], []],
    ['fills exactly to the bound', [e('a', 600), e('b', 600), e('c', 1)], ['a', 'b']],
    ['a big one is skipped, a later smaller one still fits', [e('a', 500), e('big', 800), e('c', 400), e('d', 301)], ['a', 'c']],
    ['the first is skipped, the rest fit', [e('huge', 5000), e('b', 10), e('c', 10)], ['b', 'c']],
    ['empty entries cost nothing', [e('a', 1200), e('empty', 0)], ['a', 'empty']],
    ['nothing in, nothing out', [], []],
  ] as const)('[recall-cap] %s', (_label, entries, kept) => {
    const out = capRecall(entries);
    expect(names(out)).toEqual(kept);
    // Kept entries are the very objects given, whole.
    for (const k of out) expect(entries).toContain(k);
  });

  it('[recall-cap] the token estimate binds on its own: 1-byte entries cost one token each', () => {
    const entries = Array.from({ length: 320 }, (_, i) => e(`n${i}`, 1));
    const out = capRecall(entries);
    expect(out).toHaveLength(300);
    expect(totals(out)).toEqual({ tokens: 300, bytes: 300 });
    expect(names(out)).toEqual(names(entries.slice(0, 300)));
  });

  it('[recall-cap] bytes are UTF-8 bytes, not UTF-16 units', () => {
    // 300 emoji: 600 UTF-16 units but 1200 bytes, exactly the bound; one more ASCII byte does not fit.
    const emoji = { name: 'emoji', text: '😀'.repeat(300) };
    expect(names(capRecall([emoji, e('one', 1)]))).toEqual(['emoji']);
    // 'é' is 2 bytes: 601 of them (1202 bytes) is over the bound although it is only 601 units.
    expect(capRecall([{ name: 'accents', text: 'é'.repeat(601) }])).toEqual([]);
  });

  it('[recall-cap] property: kept entries are an in-order subsequence within both bounds, and every skipped one did not fit whole', () => {
    const entry = fc.record({
      name: fc.string({ maxLength: 4 }),
      text: fc.string({ unit: fc.constantFrom('a', ' ', 'é', '世', '😀', '\n'), maxLength: 700 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
        const out = capRecall(entries);
        const t = totals(out);
        expect(t.tokens).toBeLessThanOrEqual(RECALL_MAX_TOKENS);
        expect(t.bytes).toBeLessThanOrEqual(RECALL_MAX_BYTES);
        // Replay the greedy walk: each entry is kept exactly when it fits after the kept ones before it.
        let k = 0;
        let tokens = 0;
        let bytes = 0;
        for (const x of entries) {
          const fits = tokens + estimateTokens(x.text) <= RECALL_MAX_TOKENS && bytes + utf8Length(x.text) <= RECALL_MAX_BYTES;
          expect(out[k] === x).toBe(fits);
          if (fits) {
            k++;
            tokens += estimateTokens(x.text);
            bytes += utf8Length(x.text);
          }
        }
        expect(k).toBe(out.length);
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });
});
