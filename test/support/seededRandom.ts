/** A small seeded generator so property tests are reproducible without a dependency: the demo's own mulberry32. */
export { mulberry32 as seededRandom } from '../../engine/demo/prng';

/** An integer in [lo, hi]. */
export const intIn = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

/** One element of a non-empty list. */
export function pick<T>(rand: () => number, list: readonly T[]): T {
  const item = list[Math.floor(rand() * list.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** True when `text` holds half of a surrogate pair on its own. */
export const hasLoneSurrogate = (text: string): boolean => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
