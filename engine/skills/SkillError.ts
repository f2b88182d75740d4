/**
 * Every way a skill file or a set of skill files can be refused. Each kind names one thing a
 * person can fix: `malformed` (no or invalid frontmatter, a YAML error, a key with the wrong
 * type), `unknown-schema` (a `schemaVersion` this Strata does not read), `duplicate` (one name
 * twice), `unknown-selector` (a selector type nobody registered), `missing-dependency`, `cycle`
 * (a `dependsOn` loop), `conflict` (two skills that exclude each other would enter one prompt),
 * `over-budget` (a body over its own `tokenBudget`, or a selection over the agent's budget) and
 * `unreadable` (the host could not read the file).
 */
export const SKILL_ERROR_KINDS = ['malformed', 'unknown-schema', 'duplicate', 'unknown-selector', 'missing-dependency', 'cycle', 'conflict', 'over-budget', 'unreadable'] as const;
type SkillErrorKind = (typeof SKILL_ERROR_KINDS)[number];

/**
 * A refused skill file or skill set, as a value: the skill protocol never throws on bad input.
 * `message` is the sentence to show a person and names the file and the key or skill involved;
 * `origin` is where the file came from (a path), `skill` the skill's name when known, `key` the
 * frontmatter key at fault for `malformed`, and `related` the other skills or origins involved
 * (both origins of a duplicate, the cycle path, the other side of a conflict).
 */
export interface SkillError {
  readonly kind: SkillErrorKind;
  readonly message: string;
  readonly origin?: string;
  readonly skill?: string;
  readonly key?: string;
  readonly related?: readonly string[];
}

/** True for a `SkillError`; a parsed `Skill` never has a `kind`, so the check is exact. */
export function isSkillError(value: unknown): value is SkillError {
  return typeof value === 'object' && value !== null && 'kind' in value && 'message' in value;
}
