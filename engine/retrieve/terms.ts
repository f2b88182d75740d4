const STOP = new Set(
  'a an and are as at be but by for from has have in into is it its of on or that the this to was were will with not no do does did can should would could'.split(
    ' ',
  ),
);

/**
 * Lower-cased search terms of a text: words and identifier parts of 3+ characters, without stop
 * words. `refreshToken` and `refresh_token` both give `refresh` and `token` plus the whole word.
 */
export function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.match(/[A-Za-z_][A-Za-z0-9_]{2,}/g) ?? []) {
    const whole = raw.toLowerCase();
    if (!STOP.has(whole)) out.add(whole);
    for (const part of raw.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) {
      const p = part.toLowerCase();
      if (p.length >= 3 && !STOP.has(p)) out.add(p);
    }
  }
  return out;
}

/** Share of `query` terms present in `text` terms (0 when the query is empty). */
export function overlap(query: ReadonlySet<string>, text: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  let hit = 0;
  for (const t of query) if (text.has(t)) hit++;
  return hit / query.size;
}

/** The folder part of a path including its trailing slash, '' for a bare file name. */
export const dirOf = (path: string): string => path.slice(0, path.lastIndexOf('/') + 1);
