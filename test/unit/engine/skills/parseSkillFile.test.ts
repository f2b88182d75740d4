import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkillFile } from '../../../../engine/skills/parseSkillFile';
import { isSkillError, type SkillError } from '../../../../engine/skills/SkillError';
import {
  DEFAULT_SKILL_PRIORITY,
  DEFAULT_SKILL_TOKEN_BUDGET,
  DEFAULT_SKILL_VERSION,
  type Skill,
} from '../../../../engine/skills/SkillFile';
import { skillText } from './skillFixtures';

const ORIGIN = '.strata/skills/x/SKILL.md';

function parsed(text: string): Skill {
  const result = parseSkillFile(text, ORIGIN);
  if (isSkillError(result)) throw new Error(`expected a skill, got: ${result.message}`);
  return result;
}

function refused(text: string): SkillError {
  const result = parseSkillFile(text, ORIGIN);
  if (!isSkillError(result)) throw new Error(`expected an error, got skill '${result.name}'`);
  return result;
}

const STRATA = `---
schemaVersion: 1
name: typescript-conventions
version: 1.2.0
description: Conventions for TypeScript code.
domain: typescript
languages: [typescript]
mode: selected
priority: 60
tokenBudget: 900
paths: ['src/**/*.ts']
selectors:
  - { type: language, any: [typescript] }
  - type: path
    globs: ['**/*.ts']
dependsOn: [git-hygiene]
conflictsWith: [legacy-js]
---

# TypeScript conventions

    indented code stays indented

- no any
`;

describe('parseSkillFile: the two frontmatter styles', () => {
  it('[skill-format] reads every Strata key, and the body after the frontmatter verbatim but for outer blank lines', () => {
    const skill = parsed(STRATA);
    expect(skill).toEqual({
      schemaVersion: 1,
      name: 'typescript-conventions',
      version: '1.2.0',
      description: 'Conventions for TypeScript code.',
      domain: 'typescript',
      languages: ['typescript'],
      mode: 'selected',
      priority: 60,
      tokenBudget: 900,
      paths: ['src/**/*.ts'],
      selectors: [{ type: 'language', any: ['typescript'] }, { type: 'path', globs: ['**/*.ts'] }],
      dependsOn: ['git-hygiene'],
      conflictsWith: ['legacy-js'],
      body: '# TypeScript conventions\n\n    indented code stays indented\n\n- no any',
      origin: ORIGIN,
      format: 'strata',
    });
  });

  it('[skill-format] fills omitted list keys with empty lists', () => {
    const skill = parsed(skillText({ languages: undefined, paths: undefined, selectors: undefined, dependsOn: undefined, conflictsWith: undefined }));
    expect([skill.languages, skill.paths, skill.selectors, skill.dependsOn, skill.conflictsWith]).toEqual([[], [], [], [], []]);
  });

  it('[skill-format] accepts CRLF line ends and a byte order mark', () => {
    const skill = parsed(`\uFEFF${STRATA.replace(/\n/g, '\r\n')}`);
    expect(skill.name).toBe('typescript-conventions');
    expect(skill.body).toBe('# TypeScript conventions\n\n    indented code stays indented\n\n- no any');
  });

  it('[skill-format] reads the common minimal frontmatter (name + description) with the documented defaults', () => {
    const skill = parsed(`---
name: pdf-forms
description: Fill PDF forms and extract form fields with pypdf.
license: MIT
---
Use pypdf's PdfWriter.
`);
    expect(skill).toEqual({
      schemaVersion: 1,
      name: 'pdf-forms',
      version: DEFAULT_SKILL_VERSION,
      description: 'Fill PDF forms and extract form fields with pypdf.',
      domain: 'general',
      languages: [],
      mode: 'selected',
      priority: DEFAULT_SKILL_PRIORITY,
      tokenBudget: DEFAULT_SKILL_TOKEN_BUDGET,
      paths: [],
      selectors: [
        { type: 'keyword', any: ['fill', 'pdf', 'forms', 'extract', 'form', 'fields', 'pypdf'], min: 2 },
        { type: 'keyword', any: ['pdf', 'forms'], min: 2 },
      ],
      dependsOn: [],
      conflictsWith: [],
      body: "Use pypdf's PdfWriter.",
      origin: ORIGIN,
      format: 'minimal',
    });
    expect([DEFAULT_SKILL_VERSION, DEFAULT_SKILL_PRIORITY, DEFAULT_SKILL_TOKEN_BUDGET]).toEqual(['0.0.0', 50, 2000]);
  });

  it('[skill-format] a minimal description of only stopwords and short words yields no description selector', () => {
    const skill = parsed('---\nname: misc\ndescription: Use it when you can.\n---\nBody');
    expect(skill.selectors).toEqual([{ type: 'keyword', any: ['misc'], min: 1 }]);
  });
});

describe('parseSkillFile: refused files', () => {
  const cases: [string, string, SkillError['kind'], string | undefined, RegExp][] = [
    ['no frontmatter', '# Conventions\n\nUse strict mode.\n', 'malformed', undefined, /has no frontmatter/],
    ['frontmatter never closed', '---\nname: a\ndescription: b\n# Body\n', 'malformed', undefined, /not closed/],
    ['empty frontmatter', '---\n---\nBody\n', 'malformed', undefined, /must be a YAML mapping/],
    ['frontmatter is a list', '---\n- name: a\n- description: b\n---\nBody\n', 'malformed', undefined, /must be a YAML mapping/],
    ['unclosed flow sequence', '---\nschemaVersion: 1\nname: a\nlanguages: [typescript\n---\nBody\n', 'malformed', undefined, /not valid YAML \(line \d+\)/],
    ['the same key twice', '---\nname: a\nname: b\ndescription: c\n---\n', 'malformed', undefined, /not valid YAML \(line 3\).*unique/],
    ['priority is a word', skillText({ priority: 'high' }), 'malformed', 'priority', /key 'priority'/],
    ['fractional priority', skillText({ priority: 2.5 }), 'malformed', 'priority', /key 'priority'/],
    ['name not kebab-case', skillText({ name: 'TypeScript_Conventions' }), 'malformed', 'name', /key 'name': must be kebab-case/],
    ['version 1.0 (a YAML number)', '---\nschemaVersion: 1\nname: a\nversion: 1.0\n---\n', 'malformed', 'version', /key 'version'/],
    ['version not semver', skillText({ version: 'v2' }), 'malformed', 'version', /semver/],
    ['misspelt key dependOn', skillText({ dependOn: ['git-hygiene'] }), 'malformed', 'dependOn', /unknown key 'dependOn'/],
    ['mode missing', skillText({ mode: undefined }), 'malformed', 'mode', /key 'mode'/],
    ['mode not one of the two', skillText({ mode: 'sometimes' }), 'malformed', 'mode', /key 'mode'/],
    ['zero token budget', skillText({ tokenBudget: 0 }), 'malformed', 'tokenBudget', /key 'tokenBudget'/],
    ['empty description', skillText({ description: '  ' }), 'malformed', 'description', /must not be empty/],
    ['always-on skill with selectors', skillText({ mode: 'always', selectors: [{ type: 'keyword', any: ['x'] }] }), 'malformed', 'selectors', /always-on skill has no selectors/],
    ['selector without a type', skillText({ selectors: [{ any: ['python'] }] }), 'malformed', 'selectors.0.type', /key 'selectors.0.type'/],
    ['dependency name not kebab-case', skillText({ dependsOn: ['Git Hygiene'] }), 'malformed', 'dependsOn.0', /key 'dependsOn.0'/],
    ['schemaVersion as a string', skillText({ schemaVersion: '1' }), 'malformed', 'schemaVersion', /key 'schemaVersion'/],
    ['minimal style with Strata keys but no schemaVersion', '---\nname: a\ndescription: b\nselectors: []\npriority: 3\n---\n', 'malformed', 'selectors, priority', /unknown key 'selectors, priority'.*add schemaVersion: 1/],
    ['minimal style without description', '---\nname: changelog\n---\nBody\n', 'malformed', 'description', /key 'description'/],
    ['schemaVersion 2', skillText({ schemaVersion: 2 }), 'unknown-schema', 'schemaVersion', /schemaVersion 2 is not supported; this Strata reads schemaVersion 1/],
    ['schemaVersion 0', skillText({ schemaVersion: 0 }), 'unknown-schema', 'schemaVersion', /schemaVersion 0 is not supported/],
  ];

  it.each(cases)('[skill-errors] %s', (_, text, kind, key, message) => {
    const error = refused(text);
    expect(error.kind).toBe(kind);
    expect(error.key).toBe(key);
    expect(error.origin).toBe(ORIGIN);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${ORIGIN}: `)).toBe(true);
  });

  it('[skill-errors] lists every schema issue in one message', () => {
    const error = refused(skillText({ priority: 'high', mode: 'sometimes', tokenBudget: -1 }));
    expect(error.message).toMatch(/key 'mode'/);
    expect(error.message).toMatch(/key 'priority'/);
    expect(error.message).toMatch(/key 'tokenBudget'/);
  });

  it('[skill-errors] never throws, whatever the text', () => {
    const texts = fc.oneof(
      fc.string(),
      fc.string().map((s) => `---\n${s}\n---\nbody`),
      fc.dictionary(fc.string(), fc.jsonValue()).map((d) => `---\n${JSON.stringify({ schemaVersion: 1, ...d })}\n---\n`),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const result = parseSkillFile(text, ORIGIN);
        expect(isSkillError(result) ? result.kind : result.format).toMatch(/^(malformed|unknown-schema|strata|minimal)$/);
      }),
      { numRuns: 400 },
    );
  });

  it('[skill-errors] refuses an alias bomb instead of expanding it', () => {
    const letter = (i: number): string => String.fromCharCode(97 + i);
    const levels = Array.from({ length: 8 }, (_, i) => `${letter(i + 1)}: &${letter(i + 1)} [${Array(9).fill(`*${letter(i)}`).join(', ')}]`);
    const error = refused(['---', 'a: &a [x, x, x, x, x, x, x, x, x]', ...levels, '---'].join('\n'));
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/could not be expanded \(Excessive alias count/);
  });
});
