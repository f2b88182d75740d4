import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../../engine/text/hash';
import { TokenCounter } from '../../../../engine/tokens/TokenCounter';
import type { Tokenizer } from '../../../../engine/tokens/Tokenizer';

/** One token per whitespace-separated word, recording every text it is asked to tokenize. */
function fakeTokenizer(): Tokenizer & { seen: string[] } {
  const seen: string[] = [];
  return {
    encoding: 'words',
    seen,
    count(text) {
      seen.push(text);
      return text.split(/\s+/).filter(Boolean).length;
    },
  };
}

describe('TokenCounter memoizes by content hash', () => {
  it('re-counting unchanged content tokenizes nothing new', () => {
    const tokenizer = fakeTokenizer();
    const counter = new TokenCounter(tokenizer);
    const items = ['pinned objective text', 'a finding about src/a.ts', 'tool output line'];
    const first = items.map((text) => counter.count(text));
    expect(counter.stats).toEqual({ hits: 0, misses: 3 });

    const second = items.map((text) => counter.count(text));
    expect(second).toEqual(first);
    expect(counter.stats).toEqual({ hits: 3, misses: 3 });
    expect(tokenizer.seen).toEqual(items);
  });

  it('tokenizes only the content that changed', () => {
    const tokenizer = fakeTokenizer();
    const counter = new TokenCounter(tokenizer);
    counter.count('one two');
    counter.count('three');
    counter.count('one two');
    counter.count('three four');
    expect(counter.stats).toEqual({ hits: 1, misses: 3 });
    expect(counter.size()).toBe(3);
    expect(tokenizer.seen).toEqual(['one two', 'three', 'three four']);
  });

  it('uses a given hash instead of hashing the text', () => {
    const counter = new TokenCounter(fakeTokenizer());
    const text = 'alpha beta gamma';
    expect(counter.count(text, contentHash(text))).toBe(3);
    expect(counter.count(text)).toBe(3);
    expect(counter.stats).toEqual({ hits: 1, misses: 1 });
  });

  it('hands out snapshots, so callers cannot edit the figures', () => {
    const counter = new TokenCounter(fakeTokenizer());
    const before = counter.stats;
    counter.count('x');
    expect(before).toEqual({ hits: 0, misses: 0 });
    expect(counter.encoding).toBe('words');
  });

  it('evicts the least recently used entry at maxEntries', () => {
    const tokenizer = fakeTokenizer();
    const counter = new TokenCounter(tokenizer, 2);
    counter.count('a');
    counter.count('b');
    counter.count('a');
    counter.count('c');
    expect(counter.size()).toBe(2);
    counter.count('a');
    expect(counter.stats).toEqual({ hits: 2, misses: 3 });
    counter.count('b');
    expect(counter.stats).toEqual({ hits: 2, misses: 4 });
    expect(tokenizer.seen).toEqual(['a', 'b', 'c', 'b']);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects maxEntries %d with a RangeError', (maxEntries) => {
    expect(() => new TokenCounter(fakeTokenizer(), maxEntries)).toThrow(RangeError);
  });
});
