/**
 * The lowercase words of a text: runs of ASCII letters and digits, so `user-visible` is `user`
 * and `visible`, and `CHANGELOG.md` is `changelog` and `md`. Selection compares words, never
 * substrings, so `test` does not fire on `latest`.
 */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

const SUFFIXES = ['ing', 'ed', 'es', 's'] as const;

/**
 * A crude stem so a keyword and the task agree on inflections: `tests`, `testing` and `tested`
 * are `test`; `commit`, `commits` and `committed` are `commit`; `change` and `changes` are
 * `chang`. It only has to map both sides the same way, never to produce a real word. Words of
 * three letters or fewer (`git`, `ci`, `pr`) are kept as they are.
 */
export function stemWord(word: string): string {
  if (word.length <= 3) return word;
  let w = word;
  for (const suffix of SUFFIXES) {
    if (!w.endsWith(suffix) || w.length - suffix.length < 3) continue;
    // `class`, `process`: a double s is part of the word, not a plural.
    if (suffix === 's' && w.endsWith('ss')) continue;
    w = w.slice(0, -suffix.length);
    break;
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  const last = w.at(-1);
  if (w.length > 3 && last !== undefined && last === w.at(-2) && !'aeioulsz'.includes(last)) w = w.slice(0, -1);
  return w;
}
