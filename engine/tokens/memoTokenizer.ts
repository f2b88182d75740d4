import { createTiktokenTokenizer, type TiktokenEncodingName } from './tiktokenTokenizer';
import type { Tokenizer } from './Tokenizer';

/** A tokenizer that counts each distinct text once (the jobs of a trace share most texts), its encoder loaded. */
export function memoTokenizer(encoding: TiktokenEncodingName = 'o200k_base'): Tokenizer {
  const inner = createTiktokenTokenizer(encoding);
  const seen = new Map<string, number>();
  const t: Tokenizer = {
    encoding: inner.encoding,
    count: (text) => {
      let n = seen.get(text);
      if (n === undefined) {
        if (seen.size >= 200_000) seen.clear();
        n = inner.count(text);
        seen.set(text, n);
      }
      return n;
    },
  };
  // The encoder is built on the first count (about a second): never inside a timed build.
  inner.count('warm up the encoder');
  return t;
}
