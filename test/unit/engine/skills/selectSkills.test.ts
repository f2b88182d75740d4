import { describe, expect, it } from 'vitest';
import { renderSkills } from '../../../../engine/skills/renderSkills';
import type { Skill } from '../../../../engine/skills/SkillFile';
import { SkillRegistry } from '../../../../engine/skills/SkillRegistry';
import { countWords, skill, turn } from './skillFixtures';

function registryOf(...skills: Skill[]): SkillRegistry {
  const r = new SkillRegistry(countWords);
  const errors = r.add(skills);
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('\n'));
  return r;
}
const names = (skills: readonly Skill[]): string[] => skills.map((s) => s.name);
const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const onKeyword = (word: string) => [{ type: 'keyword', any: [word] }];

describe('SkillRegistry.select: what enters', () => {
  const base = skill({ name: 'house-rules', mode: 'always', priority: 10 }, 'Be kind.');
  const ts = skill({ name: 'ts', priority: 60, selectors: [{ type: 'language', any: ['typescript'] }] });
  const py = skill({ name: 'py', priority: 60, selectors: [{ type: 'language', any: ['python'] }] });
  const bridge = skill({ name: 'bridge', priority: 55, dependsOn: ['ts', 'py'], selectors: [{ type: 'keyword', any: ['bridge'] }] });
  const helper = skill({ name: 'helper', priority: 90 });

  it('[skill-select] always-on skills enter every turn, even one nothing else matches', () => {
    const r = registryOf(base, ts, py);
    expect(names(r.select(turn()).selected)).toEqual(['house-rules']);
    expect(names(r.select(turn({ files: ['a.ts'] })).selected)).toEqual(['ts', 'house-rules']);
  });

  it('[skill-select] a matched skill brings its dependencies, even ones no selector matches', () => {
    const r = registryOf(ts, py, bridge);
    const { selected, skipped } = r.select(turn({ task: 'Fix the bridge' }));
    expect(names(selected)).toEqual(['py', 'ts', 'bridge']);
    expect(skipped).toEqual([]);
  });

  it('[skill-select] order is priority (highest first) then name', () => {
    const r = registryOf(base, ts, py, bridge);
    expect(names(r.select(turn({ files: ['a.py', 'b.ts'], task: 'bridge' })).selected)).toEqual(['py', 'ts', 'bridge', 'house-rules']);
  });

  it('[skill-select] every skill left out is skipped with its reason', () => {
    const r = registryOf(base, ts, py, helper);
    expect(r.select(turn({ files: ['a.ts'] })).skipped).toEqual([
      { name: 'helper', reason: 'not-matched', message: 'has no selectors; it enters a prompt only as a dependency' },
      { name: 'py', reason: 'not-matched', message: 'no selector matched this turn' },
    ]);
  });

  it('[skill-select] only selected skills are rendered: headed with name and version, bodies verbatim', () => {
    const a = skill({ name: 'a', version: '2.1.0', priority: 5, selectors: onKeyword('alpha') }, '# A\n\n    code stays');
    const b = skill({ name: 'b', priority: 9, selectors: onKeyword('beta') }, 'B body');
    const r = registryOf(a, b, skill({ name: 'c', selectors: onKeyword('gamma') }, 'C body'));
    const text = renderSkills(r.select(turn({ task: 'alpha and beta' })).selected);
    expect(text).toBe('<skill name="b" version="1.0.0">\nB body\n</skill>\n\n<skill name="a" version="2.1.0">\n# A\n\n    code stays\n</skill>');
    expect(renderSkills([])).toBe('');
  });
});

describe('SkillRegistry.select: conflicts', () => {
  const tabs = skill({ name: 'tabs', priority: 70, conflictsWith: ['spaces'], selectors: onKeyword('indent') });
  const spaces = skill({ name: 'spaces', priority: 40, selectors: onKeyword('indent') });

  it('[skill-select] of two matched skills that conflict the higher priority stays and the other is reported', () => {
    const { selected, errors, skipped } = registryOf(tabs, spaces).select(turn({ task: 'fix the indent' }));
    expect(names(selected)).toEqual(['tabs']);
    expect(errors).toEqual([expect.objectContaining({ kind: 'conflict', skill: 'spaces', related: ['spaces', 'tabs'] })]);
    expect(errors[0]?.message).toBe("skill 'spaces' conflicts with 'tabs', which ranks higher and was kept");
    expect(skipped).toEqual([{ name: 'spaces', reason: 'conflict', message: errors[0]?.message }]);
  });

  it('[skill-select] the declaration may be on either side', () => {
    const low = skill({ name: 'tabs', priority: 10, conflictsWith: ['spaces'], selectors: onKeyword('indent') });
    const high = skill({ name: 'spaces', priority: 80, selectors: onKeyword('indent') });
    expect(names(registryOf(low, high).select(turn({ task: 'indent' })).selected)).toEqual(['spaces']);
  });

  it('[skill-select] an always-on skill beats a conflicting selected skill of higher priority', () => {
    const always = skill({ name: 'spaces', mode: 'always', priority: 1 });
    const { selected, errors } = registryOf(tabs, always).select(turn({ task: 'indent' }));
    expect(names(selected)).toEqual(['spaces']);
    expect(errors.map((e) => e.kind)).toEqual(['conflict']);
  });

  it('[skill-select] a conflict through a dependency drops the lower root with its private dependencies', () => {
    const lib = skill({ name: 'space-lib', priority: 95, conflictsWith: ['tabs'] });
    const spacesApp = skill({ name: 'spaces-app', priority: 30, dependsOn: ['space-lib'], selectors: onKeyword('indent') });
    const { selected, errors, skipped } = registryOf(tabs, lib, spacesApp).select(turn({ task: 'indent' }));
    expect(names(selected)).toEqual(['tabs']);
    expect(errors[0]?.message).toBe("skill 'spaces-app' conflicts (through its dependency 'space-lib') with 'tabs', which ranks higher and was kept");
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([['spaces-app', 'conflict'], ['space-lib', 'conflict']]);
  });
});

describe('SkillRegistry.select: budget', () => {
  const rendered = (...s: Skill[]): number => countWords(renderSkills(s));
  const high = skill({ name: 'high', priority: 80, selectors: onKeyword('go') }, words(40));
  const mid = skill({ name: 'mid', priority: 50, selectors: onKeyword('go') }, words(40));
  const low = skill({ name: 'low', priority: 20, selectors: onKeyword('go') }, words(40));

  it('[skill-budget] at the budget everything stays; one token under drops the lowest priority', () => {
    const r = registryOf(high, mid, low);
    const all = rendered(high, mid, low);
    expect(names(r.select(turn({ task: 'go', budget: all })).selected)).toEqual(['high', 'mid', 'low']);
    const { selected, errors, skipped } = r.select(turn({ task: 'go', budget: all - 1 }));
    expect(names(selected)).toEqual(['high', 'mid']);
    expect(errors).toEqual([expect.objectContaining({ kind: 'over-budget', skill: 'low' })]);
    expect(errors[0]?.message).toBe(`skill 'low' (priority 20) was dropped: the selected skills took ${all} tokens, over the budget of ${all - 1}`);
    expect(skipped).toEqual([{ name: 'low', reason: 'over-budget', message: errors[0]?.message }]);
  });

  it('[skill-budget] drops lowest first until the rest fits, never a higher one to keep a lower', () => {
    const small = skill({ name: 'small', priority: 10, selectors: onKeyword('go') }, 'tiny');
    const r = registryOf(high, mid, small);
    const { selected, errors } = r.select(turn({ task: 'go', budget: rendered(high) + 5 }));
    expect(names(selected)).toEqual(['high']);
    expect(errors.map((e) => e.skill)).toEqual(['small', 'mid']);
    expect(countWords(renderSkills(selected))).toBeLessThanOrEqual(rendered(high) + 5);
  });

  it('[skill-budget] always-on skills are never dropped; alone over the budget they are reported, not hidden', () => {
    const rules = skill({ name: 'rules', mode: 'always', priority: 0 }, words(30));
    const r = registryOf(rules, high);
    expect(names(r.select(turn({ task: 'go', budget: rendered(rules) })).selected)).toEqual(['rules']);
    const { selected, errors } = r.select(turn({ task: 'go', budget: 10 }));
    expect(names(selected)).toEqual(['rules']);
    expect(errors.map((e) => e.kind)).toEqual(['over-budget', 'over-budget']);
    expect(errors[1]).toEqual({
      kind: 'over-budget',
      related: ['rules'],
      message: `always-on skills and their dependencies take ${rendered(rules)} tokens, over the budget of 10; they are kept, so raise the budget or shorten them`,
    });
  });

  it('[skill-budget] dropping a root also drops the dependencies only it needed, but not shared ones', () => {
    const shared = skill({ name: 'shared', priority: 90 }, words(5));
    const own = skill({ name: 'own', priority: 90 }, words(5));
    const keep = skill({ name: 'keep', priority: 70, dependsOn: ['shared'], selectors: onKeyword('go') }, words(5));
    const drop = skill({ name: 'drop', priority: 30, dependsOn: ['shared', 'own'], selectors: onKeyword('go') }, words(5));
    const r = registryOf(shared, own, keep, drop);
    const { selected, skipped } = r.select(turn({ task: 'go', budget: rendered(shared, keep) }));
    expect(names(selected)).toEqual(['shared', 'keep']);
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([['drop', 'over-budget'], ['own', 'over-budget']]);
  });

  it('[skill-budget] a root that a kept skill depends on is never reported dropped while it stays', () => {
    const base = skill({ name: 'base', priority: 10, selectors: onKeyword('go') }, words(5));
    const top = skill({ name: 'top', priority: 90, dependsOn: ['base'], selectors: onKeyword('go') }, words(5));
    const r = registryOf(base, top);
    const tight = r.select(turn({ task: 'go', budget: rendered(top, base) - 1 }));
    expect(tight.selected).toEqual([]);
    expect(tight.errors.map((e) => e.skill)).toEqual(['top']);
    expect(tight.skipped.map((s) => [s.name, s.reason])).toEqual([['top', 'over-budget'], ['base', 'over-budget']]);
    expect(names(r.select(turn({ task: 'go', budget: rendered(top, base) })).selected)).toEqual(['top', 'base']);
  });

  it.each([-1, Number.NaN])('[skill-budget] a budget of %s selects nothing and says why', (budget) => {
    const { selected, errors } = registryOf(high).select(turn({ task: 'go', budget }));
    expect(selected).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ kind: 'malformed', key: 'budget' })]);
  });

  it('[skill-budget] a zero budget keeps only always-on skills', () => {
    const { selected, errors } = registryOf(high, mid).select(turn({ task: 'go', budget: 0 }));
    expect(selected).toEqual([]);
    expect(errors.map((e) => e.skill)).toEqual(['mid', 'high']);
  });
});

describe('SkillRegistry.select: a dependency shared with a refused skill', () => {
  it('[skill-select] a dependency of a refused skill that a later kept skill needs is selected, not skipped', () => {
    const lib = skill({ name: 'lib', priority: 50 });
    const a = skill({ name: 'a', priority: 90, conflictsWith: ['b'], selectors: onKeyword('go') });
    const b = skill({ name: 'b', priority: 80, dependsOn: ['lib'], selectors: onKeyword('go') });
    const c = skill({ name: 'c', priority: 10, dependsOn: ['lib'], selectors: onKeyword('go') });
    const { selected, skipped } = registryOf(lib, a, b, c).select(turn({ task: 'go' }));
    expect(names(selected)).toEqual(['a', 'lib', 'c']);
    expect(skipped.map((s) => [s.name, s.reason])).toEqual([['b', 'conflict']]);
  });
});
