import { z } from 'zod';

/** The one frontmatter schema version this Strata reads; any other is an `unknown-schema` error. */
export const SKILL_SCHEMA_VERSION = 1;

/** Stable skill names are kebab-case, at most 64 characters (the common SKILL.md rule too). */
const SKILL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

const SkillNameSchema = z.string().max(64).regex(SKILL_NAME_PATTERN, 'must be kebab-case (a-z, 0-9, single hyphens)');
const DescriptionSchema = z.string().trim().min(1, 'must not be empty').max(1024);
const ListSchema = z.array(z.string().trim().min(1)).default([]);

/**
 * One selector as written in frontmatter: `{ type, ...params }`. Only `type` is checked here; the
 * params are checked by the schema of the selector type registered under that name, so a new type
 * needs no change to this file.
 */
const SelectorSpecSchema = z.looseObject({
  type: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a lowercase selector type name'),
});
export type SelectorSpec = z.infer<typeof SelectorSpecSchema>;

/**
 * Strata's own frontmatter (`schemaVersion: 1`). Strict: an unknown key is a `malformed` error, so
 * a typo such as `dependOn` fails loudly instead of silently dropping a dependency. An always-on
 * skill may not carry selectors (they could never matter), which is also `malformed`.
 */
export const SkillFrontmatterSchema = z
  .strictObject({
    schemaVersion: z.literal(SKILL_SCHEMA_VERSION),
    name: SkillNameSchema,
    version: z.string().regex(SEMVER_PATTERN, 'must be a semver version such as 1.0.0'),
    description: DescriptionSchema,
    domain: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a lowercase word such as typescript or git'),
    languages: ListSchema,
    mode: z.enum(['always', 'selected']),
    priority: z.int(),
    tokenBudget: z.int().positive(),
    paths: ListSchema,
    selectors: z.array(SelectorSpecSchema).default([]),
    dependsOn: z.array(SkillNameSchema).default([]),
    conflictsWith: z.array(SkillNameSchema).default([]),
  })
  .refine((f) => f.mode === 'selected' || f.selectors.length === 0, {
    path: ['selectors'],
    message: 'an always-on skill has no selectors (remove them or set mode: selected)',
  });
type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

/**
 * The common minimal SKILL.md frontmatter other agent tools use: `name` and `description`, plus
 * the optional `license`, `allowed-tools`, `metadata` and `compatibility` those tools define
 * (accepted and ignored). Any other key is `malformed`: a file that meant to be a Strata skill but
 * forgot `schemaVersion` is told so rather than losing its selectors.
 */
export const MinimalSkillFrontmatterSchema = z.strictObject({
  name: SkillNameSchema,
  description: DescriptionSchema,
  license: z.string().optional(),
  'allowed-tools': z.union([z.string(), z.array(z.string())]).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  compatibility: z.string().optional(),
});

/** Priority of a minimal-format skill: the middle of the range the shipped skills use (0-100). */
export const DEFAULT_SKILL_PRIORITY = 50;
/** Body budget of a minimal-format skill: room for a page of guidance, far below any prompt. */
export const DEFAULT_SKILL_TOKEN_BUDGET = 2000;
/** Version of a minimal-format skill, which has none: `0.0.0` reads as "unversioned". */
export const DEFAULT_SKILL_VERSION = '0.0.0';
/** Domain of a minimal-format skill. */
export const DEFAULT_SKILL_DOMAIN = 'general';

/**
 * A parsed skill: its frontmatter with every default filled in, its markdown `body` (leading and
 * trailing blank lines removed, otherwise verbatim), where it came from, and which frontmatter
 * style it was written in. A minimal-format file (`name` + `description` only) becomes: schema 1,
 * version `0.0.0`, domain `general`, no languages or paths, mode `selected`, priority 50, budget
 * 2000 tokens, no dependencies or conflicts, and `keyword` selectors drawn from its description
 * (two of its words in the task) and its name (all of its words) — see `minimalSkillSelectors`.
 * `languages`, `domain` and `paths` describe the skill; only `selectors` decide selection.
 */
export type Skill = SkillFrontmatter & {
  readonly body: string;
  readonly origin: string;
  readonly format: 'strata' | 'minimal';
};
