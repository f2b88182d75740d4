import { z } from 'zod';
import { compileGlob, matchGlob } from './matchGlob';
import type { SelectionContext, SelectorDefinition } from './SkillSelector';
import { stemWord, wordsOf } from './taskWords';

const Names = z.array(z.string().trim().min(1).toLowerCase()).min(1);

/** Languages a file extension implies, added to the turn's own `languages` by the language selector. */
const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python', go: 'go', rs: 'rust', java: 'java', rb: 'ruby',
};

/** The turn's languages, lowercased, plus those its files' extensions imply. */
export function turnLanguages(context: SelectionContext): Set<string> {
  const languages = new Set(context.languages.map((l) => l.toLowerCase()));
  for (const file of context.files) {
    const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
    const language = ext === undefined ? undefined : LANGUAGE_BY_EXTENSION[ext];
    if (language) languages.add(language);
  }
  return languages;
}

/** `{ type: 'language', any?: [...], all?: [...] }`: the turn involves any / all of these languages. */
const language: SelectorDefinition<{ any?: string[] | undefined; all?: string[] | undefined }> = {
  schema: z
    .strictObject({ any: Names.optional(), all: Names.optional() })
    .refine((p) => p.any !== undefined || p.all !== undefined, 'needs any or all'),
  matches(params, context) {
    const have = turnLanguages(context);
    return (params.any ?? []).some((l) => have.has(l)) || (params.all !== undefined && params.all.every((l) => have.has(l)));
  },
};

/** `{ type: 'path', globs: [...] }`: a file of the turn matches one of the globs (see `compileGlob`). */
const path: SelectorDefinition<{ globs: RegExp[] }> = {
  schema: z.strictObject({ globs: z.array(z.string().min(1)).min(1) }).transform((p, ctx) => {
    const globs: RegExp[] = [];
    for (const glob of p.globs) {
      const compiled = compileGlob(glob);
      if (compiled instanceof RegExp) globs.push(compiled);
      else ctx.addIssue({ code: 'custom', path: ['globs'], message: compiled.error });
    }
    return { globs };
  }),
  matches: (params, context) => context.files.some((file) => params.globs.some((glob) => matchGlob(file, glob))),
};

/**
 * `{ type: 'keyword', any: [...], min?: n }`: at least `min` (default 1) of the keywords occur in
 * the task text as words, compared by `stemWord` so inflections agree; a keyword of several words
 * (`pull request`) must occur as consecutive words.
 */
const keyword: SelectorDefinition<{ phrases: string[][]; min: number }> = {
  schema: z
    .strictObject({ any: z.array(z.string().min(1)).min(1), min: z.int().positive().default(1) })
    .refine((p) => p.min <= p.any.length, { path: ['min'], message: 'is more than the number of keywords' })
    .transform((p, ctx) => {
      const phrases = p.any.map((k) => wordsOf(k).map(stemWord));
      if (phrases.some((ph) => ph.length === 0)) ctx.addIssue({ code: 'custom', path: ['any'], message: 'a keyword has no letters or digits' });
      return { phrases, min: p.min };
    }),
  matches(params, context) {
    const words = wordsOf(context.task).map(stemWord);
    const occurs = (phrase: string[]): boolean =>
      words.some((_, i) => phrase.every((w, j) => words[i + j] === w));
    return params.phrases.filter(occurs).length >= params.min;
  },
};

/** `{ type: 'role', any: [...] }`: the agent's role is one of these (case-insensitive). */
const role: SelectorDefinition<{ any: string[] }> = {
  schema: z.strictObject({ any: Names }),
  matches: (params, context) => params.any.includes(context.role.toLowerCase()),
};

/** `{ type: 'phase', any: [...] }`: the agent's phase is one of these (case-insensitive). */
const phase: SelectorDefinition<{ any: string[] }> = {
  schema: z.strictObject({ any: Names }),
  matches: (params, context) => params.any.includes(context.phase.toLowerCase()),
};

/**
 * The selector types every `SkillRegistry` starts with. A skill is selected when any one of its
 * selectors matches; a selector expresses "all of" within itself (`language.all`, `keyword.min`).
 */
export const builtinSelectors: Readonly<Record<string, SelectorDefinition<unknown>>> = { language, path, keyword, role, phase };
