import { stringify } from 'yaml';
import { parseSkillFile } from '../../../../engine/skills/parseSkillFile';
import { isSkillError } from '../../../../engine/skills/SkillError';
import type { Skill } from '../../../../engine/skills/SkillFile';
import type { SelectionContext } from '../../../../engine/skills/SkillSelector';

/** The deterministic fake tokenizer of these tests: one token per whitespace-separated word. */
export const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** The text of a Strata SKILL.md with sensible frontmatter, `overrides` replacing keys (undefined removes one). */
export function skillText(overrides: Record<string, unknown>, body = 'Guidance for this skill.'): string {
  const frontmatter: Record<string, unknown> = {
    schemaVersion: 1,
    name: 'example',
    version: '1.0.0',
    description: 'An example skill.',
    domain: 'testing',
    languages: [],
    mode: 'selected',
    priority: 50,
    tokenBudget: 500,
    paths: [],
    selectors: [],
    dependsOn: [],
    conflictsWith: [],
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete frontmatter[key];
    else frontmatter[key] = value;
  }
  return `---\n${stringify(frontmatter)}---\n\n${body}\n`;
}

/** A parsed skill; fails the test when the fixture does not parse. */
export function skill(overrides: Record<string, unknown>, body?: string): Skill {
  const origin = `skills/${String(overrides.name ?? 'example')}/SKILL.md`;
  const parsed = parseSkillFile(skillText(overrides, body), origin);
  if (isSkillError(parsed)) throw new Error(`fixture did not parse: ${parsed.message}`);
  return parsed;
}

/** A turn that matches nothing by default: a plain role and phase, no task words, no files. */
export function turn(overrides: Partial<SelectionContext> = {}): SelectionContext {
  return { role: 'worker', phase: 'implement', task: '', files: [], languages: [], budget: 10_000, ...overrides };
}
