import type { SelectorSpec } from './SkillFile';
import { wordsOf } from './taskWords';

// Function words and words generic to any coding task: as keywords they would select a skill for
// almost every task ("write", "update", "code", "user").
const STOPWORDS = new Set(
  (
    'the and for with when that this from into onto use used uses using are was were will can could should must ' +
    'any all its you your our about also how what which who whom not but has have had been being such other ' +
    'more most some each than then them they their these those there here where only over under like via per ' +
    'etc just very may might one two new old get set let out own same both few many much skill skills file ' +
    'files agent agents task tasks work working make makes help helps write writes writing update updates ' +
    'updated add adds added adding change changes changed code project projects guide guidance rules rule ' +
    'always never before after during while keep keeps user users'
  ).split(' '),
);

const keywordsOf = (text: string): string[] =>
  [...new Set(wordsOf(text))].filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !STOPWORDS.has(w));

/**
 * The selectors of a minimal-format skill (`name` + `description` only), which declares none:
 *  - its description's keywords (distinct words of three or more letters, not digits only, not a
 *    stopword), of which the task must contain two (or one, when there is only one), because a
 *    single incidental word such as "release" is too weak a signal to spend prompt tokens on;
 *  - its name's keywords, all of which the task must contain, so "update the changelog" selects
 *    a skill named `changelog` even though that is one word.
 * A skill whose name and description yield no keyword gets no selector and enters a prompt only
 * as a dependency.
 */
export function minimalSkillSelectors(name: string, description: string): SelectorSpec[] {
  const described = keywordsOf(description);
  const named = keywordsOf(name.replace(/-/g, ' '));
  const selectors: SelectorSpec[] = [];
  if (described.length > 0) selectors.push({ type: 'keyword', any: described, min: Math.min(2, described.length) });
  if (named.length > 0) selectors.push({ type: 'keyword', any: named, min: named.length });
  return selectors;
}
