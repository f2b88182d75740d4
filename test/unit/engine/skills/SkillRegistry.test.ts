import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SkillError } from '../../../../engine/skills/SkillError';
import type { Skill } from '../../../../engine/skills/SkillFile';
import { SkillRegistry } from '../../../../engine/skills/SkillRegistry';
import { countWords, skill, turn } from './skillFixtures';

const registry = (): SkillRegistry => new SkillRegistry(countWords);
const kinds = (errors: readonly SkillError[]): string[] => errors.map((e) => e.kind).sort();

describe('SkillRegistry.add: every error of a set', () => {
  const ts = skill({ name: 'typescript-conventions', selectors: [{ type: 'language', any: ['typescript'] }] });
  const cases: [string, Skill[], SkillError['kind'], RegExp][] = [
    [
      'the same name in two folders',
      [ts, { ...ts, origin: '.strata/skills/ts/SKILL.md' }],
      'duplicate',
      /'typescript-conventions' is defined twice, in skills\/typescript-conventions\/SKILL.md and in .strata\/skills\/ts\/SKILL.md/,
    ],
    [
      'a selector type nobody registered',
      [skill({ name: 'ci-only', selectors: [{ type: 'env', equals: { CI: 'true' } }] })],
      'unknown-selector',
      /selector type 'env' is not registered \(registered: keyword, language, path, phase, role\)/,
    ],
    [
      'selector params its type refuses',
      [skill({ name: 'py', selectors: [{ type: 'path', globs: '**/*.py' }] })],
      'malformed',
      /frontmatter key 'selectors.0.globs' \(a path selector\): Invalid input: expected array/,
    ],
    [
      'a dependency no file defines',
      [skill({ name: 'bridge', dependsOn: ['typescript-conventions', 'python-conventions'] }), ts],
      'missing-dependency',
      /'bridge' depends on 'python-conventions', which no loaded skill file defines/,
    ],
    [
      'a dependsOn cycle',
      [skill({ name: 'b', dependsOn: ['c'] }), skill({ name: 'c', dependsOn: ['a'] }), skill({ name: 'a', dependsOn: ['b'] })],
      'cycle',
      /in a cycle: a -> b -> c -> a/,
    ],
    [
      'a skill depending on one it conflicts with',
      [skill({ name: 'strict-ts', dependsOn: ['legacy-js'], conflictsWith: ['legacy-js'] }), skill({ name: 'legacy-js' })],
      'conflict',
      /'legacy-js' and 'strict-ts' conflict but 'strict-ts' and its dependencies always enter a prompt together/,
    ],
    [
      'two always-on skills that conflict',
      [skill({ name: 'tabs', mode: 'always', conflictsWith: ['spaces'] }), skill({ name: 'spaces', mode: 'always' })],
      'conflict',
      /'spaces' and 'tabs' conflict but always-on skills and their dependencies always enter a prompt together/,
    ],
    [
      'a body over its own budget',
      [skill({ name: 'wordy', tokenBudget: 5 }, 'one two three four five six')],
      'over-budget',
      /the body of 'wordy' is 6 tokens, over its tokenBudget of 5/,
    ],
  ];

  it.each(cases)('[skill-registry] %s', (_, skills, kind, message) => {
    const r = registry();
    const errors = r.add(skills);
    expect(kinds(errors)).toEqual([kind]);
    expect(errors[0]?.message).toMatch(message);
    expect(r.skills()).toEqual([]);
  });

  it('[skill-registry] a duplicate names both origins in related', () => {
    const [error] = registry().add([ts, { ...ts, origin: 'w/SKILL.md' }]);
    expect(error?.related).toEqual([ts.origin, 'w/SKILL.md']);
  });

  it('[skill-registry] reports every problem of a set at once, and a set with errors changes nothing', () => {
    const r = registry();
    expect(r.add([ts])).toEqual([]);
    const errors = r.add([
      ts,
      skill({ name: 'a', dependsOn: ['a'] }),
      skill({ name: 'b', dependsOn: ['nope'], selectors: [{ type: 'mood', any: ['x'] }] }),
      skill({ name: 'c', tokenBudget: 1 }, 'two words'),
    ]);
    expect(kinds(errors)).toEqual(['cycle', 'duplicate', 'missing-dependency', 'over-budget', 'unknown-selector']);
    expect(errors.find((e) => e.kind === 'cycle')?.message).toMatch(/a -> a/);
    expect(r.skills().map((s) => s.name)).toEqual(['typescript-conventions']);
  });

  it('[skill-registry] each cycle is reported once, however many skills reach it', () => {
    const errors = registry().add([skill({ name: 'x', dependsOn: ['y'] }), skill({ name: 'y', dependsOn: ['x'] }), skill({ name: 'z', dependsOn: ['x'] })]);
    expect(errors.map((e) => e.message)).toEqual(['skills depend on each other in a cycle: x -> y -> x; remove one dependsOn entry']);
  });

  it('[skill-registry] later adds are validated together with what is registered', () => {
    const r = registry();
    expect(r.add([ts])).toEqual([]);
    expect(r.add([skill({ name: 'bridge', dependsOn: ['typescript-conventions'] })])).toEqual([]);
    expect(r.skills().map((s) => s.name)).toEqual(['bridge', 'typescript-conventions']);
  });
});

describe('SkillRegistry.registerSelector', () => {
  it('[skill-registry] a new selector type works through registration alone', () => {
    const r = registry();
    const ciOnly = skill({ name: 'ci-only', selectors: [{ type: 'env', equals: { CI: 'true' } }] });
    expect(kinds(r.add([ciOnly]))).toEqual(['unknown-selector']);

    r.registerSelector('env', {
      schema: z.strictObject({ equals: z.record(z.string(), z.string()) }),
      matches: (params, context) => Object.entries(params.equals).every(([k, v]) => context.attributes?.[k] === v),
    });
    expect(r.selectorTypes()).toContain('env');
    expect(r.add([ciOnly])).toEqual([]);
    expect(r.select(turn({ attributes: { CI: 'true' } })).selected.map((s) => s.name)).toEqual(['ci-only']);
    expect(r.select(turn({ attributes: { CI: 'false' } })).selected).toEqual([]);
    expect(r.select(turn()).selected).toEqual([]);
  });

  it('[skill-registry] a registered type validates its params when skills are added', () => {
    const r = registry();
    r.registerSelector('env', { schema: z.strictObject({ equals: z.record(z.string(), z.string()) }), matches: () => true });
    const errors = r.add([skill({ name: 'ci-only', selectors: [{ type: 'env', equals: 'CI' }] })]);
    expect(errors).toEqual([expect.objectContaining({ kind: 'malformed', skill: 'ci-only', key: 'selectors.0.equals' })]);
  });

  it.each([
    ['language', /already registered/],
    ['Env', /kebab-case/],
    ['', /kebab-case/],
  ])('[skill-registry] refuses to register %j', (type, message) => {
    const r = registry();
    expect(() => r.registerSelector(type, { schema: z.unknown(), matches: () => true })).toThrow(message);
    expect(r.selectorTypes()).toEqual(['keyword', 'language', 'path', 'phase', 'role']);
  });

  it('[skill-registry] a registry built with no selector types knows only what is registered', () => {
    const r = new SkillRegistry(countWords, {});
    expect(r.selectorTypes()).toEqual([]);
    expect(kinds(r.add([skill({ name: 'k', selectors: [{ type: 'keyword', any: ['x'] }] })]))).toEqual(['unknown-selector']);
  });
});
