import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkillFiles, MAX_SKILL_FILE_BYTES } from '../../../engine/node/workspace/loadSkillFiles';
import { parseSkillFile } from '../../../engine/skills/parseSkillFile';
import { renderSkills } from '../../../engine/skills/renderSkills';
import { isSkillError, type SkillError } from '../../../engine/skills/SkillError';
import type { Skill } from '../../../engine/skills/SkillFile';
import { SkillRegistry } from '../../../engine/skills/SkillRegistry';
import type { SelectionContext } from '../../../engine/skills/SkillSelector';
import { createTiktokenTokenizer } from '../../../engine/tokens/tiktokenTokenizer';
import { tempDir } from '../../support/tempDir';

const SHIPPED = join(import.meta.dirname, '..', '..', '..', 'resources', 'skills');
const tokenizer = createTiktokenTokenizer('o200k_base');
const countTokens = (text: string): number => tokenizer.count(text);

/** Load and parse every SKILL.md under `dirs`: the skills, and every load or parse error. */
async function loadSkills(dirs: string[]): Promise<{ skills: Skill[]; errors: SkillError[] }> {
  const { files, errors } = await loadSkillFiles(dirs);
  const parsed = files.map((f) => parseSkillFile(f.text, f.origin));
  return { skills: parsed.filter((p): p is Skill => !isSkillError(p)), errors: [...errors, ...parsed.filter(isSkillError)] };
}

function turn(overrides: Partial<SelectionContext>): SelectionContext {
  return { role: 'worker', phase: 'implement', task: '', files: [], languages: [], budget: 8000, ...overrides };
}

function writeSkill(root: string, folder: string, text: string): string {
  mkdirSync(join(root, folder), { recursive: true });
  const path = join(root, folder, 'SKILL.md');
  writeFileSync(path, text);
  return path;
}

describe('the shipped resources/skills', () => {
  let registry: SkillRegistry;
  let skills: Skill[];

  beforeEach(async () => {
    const loaded = await loadSkills([SHIPPED]);
    expect(loaded.errors).toEqual([]);
    skills = loaded.skills;
    registry = new SkillRegistry(countTokens);
    expect(registry.add(skills)).toEqual([]);
  });

  it('[skill-registry] load with zero errors through loadSkillFiles, parse, and registry.add with the real tokenizer', () => {
    expect(registry.skills().map((s) => `${s.domain}/${s.name}:${s.format}`)).toEqual([
      'general/changelog:minimal',
      'git/git-hygiene:strata',
      'python/python-conventions:strata',
      'testing/test-regression:strata',
      'typescript/typescript-conventions:strata',
      'integration/typescript-python-bridge:strata',
    ]);
    for (const s of skills) expect(s.origin).toBe(join(SHIPPED, s.domain, s.name, 'SKILL.md'));
  });

  it('[skill-budget] every shipped body is within its own tokenBudget (o200k) and has real content', () => {
    for (const s of skills) {
      const tokens = countTokens(s.body);
      expect(tokens, s.name).toBeLessThanOrEqual(s.tokenBudget);
      expect(tokens, s.name).toBeGreaterThan(150);
    }
  });

  it('[skill-format] the integration skill depends on two others; changelog uses the minimal format', () => {
    const byName = new Map(skills.map((s) => [s.name, s]));
    expect(byName.get('typescript-python-bridge')?.dependsOn).toEqual(['typescript-conventions', 'python-conventions']);
    expect(byName.get('changelog')).toMatchObject({ format: 'minimal', version: '0.0.0', priority: 50, tokenBudget: 2000 });
  });

  it.each<[string, Partial<SelectionContext>, string[]]>([
    ['a TypeScript task', { task: 'Add a --json flag to the export command', files: ['src/cli/export.ts'], languages: ['typescript'] }, ['typescript-conventions']],
    ['a TypeScript task named only by its language', { task: 'Tighten the types of the config loader', languages: ['typescript'] }, ['typescript-conventions']],
    ['a Python test-fixing task', { task: 'Fix the failing pytest for the tokenizer', files: ['tests/test_tokenizer.py', 'src/app/tokenizer.py'] }, ['test-regression', 'python-conventions']],
    ['a task touching TypeScript and Python', { task: 'Stream progress events from the worker to the UI', files: ['src/ui/progress.ts', 'worker/progress.py'] }, ['python-conventions', 'typescript-conventions', 'typescript-python-bridge']],
    ['a commit and branch task', { task: 'Commit the fix on a new branch and open a pull request' }, ['git-hygiene']],
    ['a rebase task', { task: 'Rebase onto main and squash the fixup commits' }, ['git-hygiene']],
    ['a release notes task', { task: 'Write the changelog for 2.4.0' }, ['changelog']],
    ['a verifier in the verify phase', { role: 'verifier', phase: 'verify', task: 'Check the work' }, ['test-regression']],
    ['a docs task', { task: 'Proofread the README introduction', files: ['README.md'] }, []],
  ])('[skill-select] %s', (_, context, expected) => {
    const { selected, errors, skipped } = registry.select(turn(context));
    expect(selected.map((s) => s.name)).toEqual(expected);
    expect(errors).toEqual([]);
    expect(skipped.map((s) => s.name).sort()).toEqual(skills.map((s) => s.name).filter((n) => !expected.includes(n)).sort());
  });

  it('[skill-select] only the selected skills enter the prompt text', () => {
    const { selected } = registry.select(turn({ task: 'Fix the failing pytest', files: ['tests/test_a.py'] }));
    const text = renderSkills(selected);
    expect(text).toContain('<skill name="python-conventions" version="1.0.0">');
    expect(text).toContain('# Running tests and regression expectations');
    expect(text).not.toContain('TypeScript conventions');
    expect(text).not.toContain('Git hygiene');
  });

  it('[skill-budget] a per-agent budget too small for a cross-language test fix drops the lowest priority, reported', () => {
    const context = turn({ task: 'Fix the failing vitest', files: ['src/a.ts', 'worker/b.py'], budget: 2000 });
    const { selected, errors } = registry.select(context);
    expect(selected.map((s) => s.name)).toEqual(['test-regression', 'python-conventions', 'typescript-conventions']);
    expect(errors).toEqual([expect.objectContaining({ kind: 'over-budget', skill: 'typescript-python-bridge' })]);
    expect(countTokens(renderSkills(selected))).toBeLessThanOrEqual(2000);
  });
});

describe('a workspace .strata/skills next to the shipped skills', () => {
  let tmp: ReturnType<typeof tempDir>;
  let workspaceSkills: string;

  beforeEach(() => {
    tmp = tempDir('strata-skills-');
    workspaceSkills = join(tmp.dir, '.strata', 'skills');
  });
  afterEach(() => tmp.remove());

  it('[skill-registry] a workspace skill named like a shipped one is a duplicate naming both files, and nothing is added', async () => {
    const own = writeSkill(workspaceSkills, 'ts', '---\nname: typescript-conventions\ndescription: Our own TypeScript rules, tabs and all.\n---\nUse tabs.\n');
    const { skills, errors } = await loadSkills([SHIPPED, workspaceSkills]);
    expect(errors).toEqual([]);
    const registry = new SkillRegistry(countTokens);
    const added = registry.add(skills);
    const shipped = join(SHIPPED, 'typescript', 'typescript-conventions', 'SKILL.md');
    expect(added).toEqual([
      {
        kind: 'duplicate',
        skill: 'typescript-conventions',
        origin: own,
        related: [shipped, own],
        message: `skill 'typescript-conventions' is defined twice, in ${shipped} and in ${own}: names are stable ids, so rename or remove one`,
      },
    ]);
    expect(registry.skills()).toEqual([]);
  });

  it('[skill-select] a workspace skill with its own name loads and is selected by its selectors', async () => {
    writeSkill(workspaceSkills, 'api/migrations', `---
schemaVersion: 1
name: db-migrations
version: 0.3.0
description: How this repository writes database migrations.
domain: python
languages: [python]
mode: selected
priority: 65
tokenBudget: 300
paths: ['migrations/**']
selectors: [{ type: path, globs: ['migrations/**'] }]
dependsOn: [python-conventions]
---
Migrations are reversible; test the downgrade.
`);
    writeFileSync(join(workspaceSkills, 'README.md'), 'Not a skill.');
    const { skills, errors } = await loadSkills([SHIPPED, workspaceSkills]);
    expect(errors).toEqual([]);
    const registry = new SkillRegistry(countTokens);
    expect(registry.add(skills)).toEqual([]);
    const { selected } = registry.select(turn({ task: 'Add a column', files: ['migrations/0042_add_email.py'] }));
    expect(selected.map((s) => s.name)).toEqual(['db-migrations', 'python-conventions']);
  });

  it('[skill-errors] unreadable files become errors and the other skills still load', async () => {
    writeSkill(workspaceSkills, 'good', '---\nname: good-one\ndescription: Fine.\n---\nBody\n');
    mkdirSync(join(workspaceSkills, 'dangling'), { recursive: true });
    symlinkSync(join(tmp.dir, 'missing.md'), join(workspaceSkills, 'dangling', 'SKILL.md'));
    mkdirSync(join(workspaceSkills, 'latin1'), { recursive: true });
    writeFileSync(join(workspaceSkills, 'latin1', 'SKILL.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]));
    writeSkill(workspaceSkills, 'huge', `---\nname: huge\ndescription: big\n---\n${'x'.repeat(MAX_SKILL_FILE_BYTES)}`);

    const { files, errors } = await loadSkillFiles([workspaceSkills, join(tmp.dir, 'no-such-dir')]);
    expect(files.map((f) => f.origin)).toEqual([join(workspaceSkills, 'good', 'SKILL.md')]);
    expect(errors.map((e) => [e.kind, e.origin])).toEqual([
      ['unreadable', join(workspaceSkills, 'dangling', 'SKILL.md')],
      ['unreadable', join(workspaceSkills, 'huge', 'SKILL.md')],
      ['unreadable', join(workspaceSkills, 'latin1', 'SKILL.md')],
    ]);
    expect(errors[0]?.message).toMatch(/could not be read \(ENOENT/);
    expect(errors[1]?.message).toMatch(/over the 262144-byte limit/);
    expect(errors[2]?.message).toMatch(/not valid UTF-8 text/);
  });

  it('[skill-errors] a path given as a skills dir that is a file is an error, a missing one is not', async () => {
    const file = join(tmp.dir, 'plain.txt');
    writeFileSync(file, 'x');
    const { files, errors } = await loadSkillFiles([file, join(tmp.dir, 'absent')]);
    expect(files).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ kind: 'unreadable', origin: file, message: expect.stringMatching(/ENOTDIR/) })]);
  });

  it('[skill-errors] a symlink loop is walked once', async () => {
    writeSkill(workspaceSkills, 'a', '---\nname: loop-safe\ndescription: Fine.\n---\nBody\n');
    symlinkSync(workspaceSkills, join(workspaceSkills, 'a', 'back'));
    const { files, errors } = await loadSkillFiles([workspaceSkills]);
    expect(files.map((f) => f.origin)).toEqual([join(workspaceSkills, 'a', 'SKILL.md')]);
    expect(errors).toEqual([]);
  });
});
