import { createTiktokenTokenizer, type TiktokenEncodingName } from './tiktokenTokenizer';
import type { Tokenizer } from './Tokenizer';

/** Distinct texts remembered, and their characters, before the oldest are forgotten. */
const MAX_TEXTS = 200_000;
const MAX_CHARS = 8 * 1024 * 1024;

/**
 * A tokenizer that counts each distinct text once (the jobs of a trace share most texts, a
 * gateway thread re-sends its history), its encoder loaded. Bounded by texts and by their
 * characters, the oldest forgotten first, so a long-lived gateway's memory does not grow with
 * the texts it has counted.
 */
export function memoTokenizer(encoding: TiktokenEncodingName = 'o200k_base'): Tokenizer {
  const inner = createTiktokenTokenizer(encoding);
  const seen = new Map<string, number>();
  let chars = 0;
  const t: Tokenizer = {
    encoding: inner.encoding,
    count: (text) => {
      let n = seen.get(text);
      if (n === undefined) {
        n = inner.count(text);
        if (text.length > MAX_CHARS) return n;
        seen.set(text, n);
        chars += text.length;
        for (const old of seen.keys()) {
          if (seen.size <= MAX_TEXTS && chars <= MAX_CHARS) break;
          seen.delete(old);
          chars -= old.length;
        }
      }
      return n;
    },
  };
  // The encoder is built on the first count (about a second): never inside a timed build.
  inner.count('warm up the encoder');
  return t;
}
