import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { minimalSkillSelectors } from './minimalSkillSelectors';
import type { SkillError } from './SkillError';
import {
  DEFAULT_SKILL_DOMAIN,
  DEFAULT_SKILL_PRIORITY,
  DEFAULT_SKILL_TOKEN_BUDGET,
  DEFAULT_SKILL_VERSION,
  MinimalSkillFrontmatterSchema,
  SKILL_SCHEMA_VERSION,
  SkillFrontmatterSchema,
  type Skill,
} from './SkillFile';

const DELIMITER = /^---[ \t]*$/;
const CLOSER = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Parse one SKILL.md: YAML frontmatter between a first line `---` and the next `---` (or `...`)
 * line, then the markdown body. With `schemaVersion: 1` the frontmatter must be Strata's (see
 * `SkillFrontmatterSchema`); without `schemaVersion` it must be the common minimal one (`name` +
 * `description`), which gets the defaults `Skill` documents. Returns a `SkillError` instead of
 * throwing, whatever the text: `malformed` for a missing or unclosed frontmatter, a YAML error
 * (with its line in the file), a non-mapping, or schema issues (each naming its key), and
 * `unknown-schema` for any other `schemaVersion`. `origin` only labels messages and the result.
 */
export function parseSkillFile(text: string, origin: string): Skill | SkillError {
  try {
    return parse(text, origin);
  } catch (err) {
    return { kind: 'malformed', origin, message: `${origin}: could not be parsed (${String(err)})` };
  }
}

function parse(text: string, origin: string): Skill | SkillError {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!DELIMITER.test(lines[0] ?? '')) {
    return malformed(origin, 'has no frontmatter: the first line must be --- followed by YAML and a closing ---');
  }
  const end = lines.findIndex((line, i) => i > 0 && CLOSER.test(line));
  if (end < 0) return malformed(origin, 'frontmatter is not closed: add a --- line after the YAML');

  const doc = parseDocument(lines.slice(1, end).join('\n'));
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = yamlError.linePos?.[0]?.line;
    const what = (yamlError.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return malformed(origin, `frontmatter is not valid YAML${line === undefined ? '' : ` (line ${line + 1})`}: ${what}`);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (err) {
    return malformed(origin, `frontmatter could not be expanded (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return malformed(origin, 'frontmatter must be a YAML mapping of keys such as name and description');
  }

  const body = lines.slice(end + 1).join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  const version: unknown = (data as Record<string, unknown>).schemaVersion;
  if (version === undefined) return minimalSkill(data, body, origin);
  if (typeof version === 'number' && version !== SKILL_SCHEMA_VERSION) {
    return {
      kind: 'unknown-schema',
      origin,
      key: 'schemaVersion',
      message: `${origin}: schemaVersion ${version} is not supported; this Strata reads schemaVersion ${SKILL_SCHEMA_VERSION}`,
    };
  }
  const parsed = SkillFrontmatterSchema.safeParse(data);
  if (!parsed.success) return schemaError(origin, parsed.error.issues, '');
  return { ...parsed.data, body, origin, format: 'strata' };
}

function minimalSkill(data: object, body: string, origin: string): Skill | SkillError {
  const parsed = MinimalSkillFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    return schemaError(origin, parsed.error.issues, ' (without schemaVersion only name, description, license, allowed-tools, metadata and compatibility are read; add schemaVersion: 1 for Strata frontmatter)');
  }
  return {
    schemaVersion: SKILL_SCHEMA_VERSION,
    name: parsed.data.name,
    version: DEFAULT_SKILL_VERSION,
    description: parsed.data.description,
    domain: DEFAULT_SKILL_DOMAIN,
    languages: [],
    mode: 'selected',
    priority: DEFAULT_SKILL_PRIORITY,
    tokenBudget: DEFAULT_SKILL_TOKEN_BUDGET,
    paths: [],
    selectors: minimalSkillSelectors(parsed.data.name, parsed.data.description),
    dependsOn: [],
    conflictsWith: [],
    body,
    origin,
    format: 'minimal',
  };
}

function malformed(origin: string, what: string): SkillError {
  return { kind: 'malformed', origin, message: `${origin}: ${what}` };
}

function schemaError(origin: string, issues: readonly z.core.$ZodIssue[], hint: string): SkillError {
  const keyOf = (issue: z.core.$ZodIssue): string =>
    issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.map(String).join('.');
  const parts = issues.map((issue) => {
    const key = keyOf(issue);
    if (issue.code === 'unrecognized_keys') return `unknown key '${key}'`;
    return key === '' ? issue.message : `key '${key}': ${issue.message}`;
  });
  const first = issues[0];
  const key = first ? keyOf(first) : '';
  return {
    kind: 'malformed',
    origin,
    ...(key === '' ? {} : { key }),
    message: `${origin}: frontmatter ${parts.join('; ')}${issues.some((i) => i.code === 'unrecognized_keys') ? hint : ''}`,
  };
}
