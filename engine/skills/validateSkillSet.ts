import type { SkillError } from './SkillError';
import type { Skill } from './SkillFile';
import type { CountTokens, SelectorDefinition } from './SkillSelector';

/** A selector of a validated skill: its type's definition and its params parsed by that type's schema. */
interface CompiledSelector {
  readonly type: string;
  readonly params: unknown;
  readonly definition: SelectorDefinition<unknown>;
}

/** A skill that passed `validateSkillSet`, with its compiled selectors and its body's token count. */
export interface CompiledSkill {
  readonly skill: Skill;
  readonly selectors: readonly CompiledSelector[];
  readonly bodyTokens: number;
}

/** True when either of the two skills declares a conflict with the other. */
export function conflicts(a: Skill, b: Skill): boolean {
  return a.conflictsWith.includes(b.name) || b.conflictsWith.includes(a.name);
}

/** `name` and everything it transitively depends on (names not in `byName` are skipped). */
export function dependencyClosure(name: string, byName: ReadonlyMap<string, Skill>): Set<string> {
  const seen = new Set<string>();
  const visit = (n: string): void => {
    if (seen.has(n) || !byName.has(n)) return;
    seen.add(n);
    for (const dep of byName.get(n)?.dependsOn ?? []) visit(dep);
  };
  visit(name);
  return seen;
}

/**
 * Check a whole skill set and return every problem, not just the first: `duplicate` names (with
 * both origins), selectors of an `unknown-selector` type or with params their type's schema
 * refuses (`malformed`, keyed `selectors.N...`), bodies `over-budget` by `countTokens`,
 * `missing-dependency`, each dependency `cycle` once (as a path `a -> b -> a`), and `conflict`s
 * that no selection could avoid: a skill whose own dependencies conflict with it or each other, or
 * two always-on skills (with their dependencies) that conflict. `compiled` is meaningful only when
 * `errors` is empty; the set is all or nothing so a prompt never runs on half of what was meant.
 */
export function validateSkillSet(
  skills: readonly Skill[],
  selectorTypes: ReadonlyMap<string, SelectorDefinition<unknown>>,
  countTokens: CountTokens,
): { compiled: CompiledSkill[]; errors: SkillError[] } {
  const errors: SkillError[] = [];
  const byName = new Map<string, Skill>();
  for (const skill of skills) {
    const first = byName.get(skill.name);
    if (!first) {
      byName.set(skill.name, skill);
      continue;
    }
    errors.push({
      kind: 'duplicate', skill: skill.name, origin: skill.origin, related: [first.origin, skill.origin],
      message: `skill '${skill.name}' is defined twice, in ${first.origin} and in ${skill.origin}: names are stable ids, so rename or remove one`,
    });
  }

  const compiled = skills.map((skill) => compileSkill(skill, selectorTypes, countTokens, errors));

  for (const skill of byName.values()) {
    for (const dep of skill.dependsOn.filter((d) => !byName.has(d))) {
      errors.push({
        kind: 'missing-dependency', skill: skill.name, origin: skill.origin, related: [dep],
        message: `${skill.origin}: skill '${skill.name}' depends on '${dep}', which no loaded skill file defines`,
      });
    }
  }
  for (const cycle of dependencyCycles(byName)) {
    const path = cycle.join(' -> ');
    errors.push({ kind: 'cycle', skill: cycle[0], related: cycle, message: `skills depend on each other in a cycle: ${path}; remove one dependsOn entry` });
  }

  const groups = [...byName.keys()].map((name) => ({ why: `'${name}' and its dependencies`, names: dependencyClosure(name, byName) }));
  const alwaysOn = [...byName.values()].filter((s) => s.mode === 'always');
  groups.push({ why: 'always-on skills and their dependencies', names: new Set(alwaysOn.flatMap((s) => [...dependencyClosure(s.name, byName)])) });
  const reported = new Set<string>();
  for (const group of groups) {
    const members = [...group.names].sort().map((n) => byName.get(n)).filter((s) => s !== undefined);
    for (const [i, a] of members.entries()) {
      for (const b of members.slice(i)) {
        const key = `${a.name}|${b.name}`;
        if (!conflicts(a, b) || reported.has(key)) continue;
        reported.add(key);
        errors.push({
          kind: 'conflict', skill: a.name, origin: a.origin, related: [a.name, b.name],
          message: `skills '${a.name}' and '${b.name}' conflict but ${group.why} always enter a prompt together`,
        });
      }
    }
  }
  return { compiled, errors };
}

function compileSkill(
  skill: Skill,
  selectorTypes: ReadonlyMap<string, SelectorDefinition<unknown>>,
  countTokens: CountTokens,
  errors: SkillError[],
): CompiledSkill {
  const selectors: CompiledSelector[] = [];
  for (const [i, { type, ...params }] of skill.selectors.entries()) {
    const definition = selectorTypes.get(type);
    if (!definition) {
      const known = [...selectorTypes.keys()].sort().join(', ');
      errors.push({
        kind: 'unknown-selector', skill: skill.name, origin: skill.origin, key: `selectors.${i}.type`, related: [type],
        message: `${skill.origin}: selector type '${type}' is not registered (registered: ${known})`,
      });
      continue;
    }
    const parsed = definition.schema.safeParse(params);
    if (parsed.success) {
      selectors.push({ type, params: parsed.data, definition });
      continue;
    }
    for (const issue of parsed.error.issues) {
      const key = ['selectors', i, ...(issue.code === 'unrecognized_keys' ? [issue.keys.join(', ')] : issue.path)].map(String).join('.');
      errors.push({ kind: 'malformed', skill: skill.name, origin: skill.origin, key, message: `${skill.origin}: frontmatter key '${key}' (a ${type} selector): ${issue.message}` });
    }
  }
  const bodyTokens = countTokens(skill.body);
  if (bodyTokens > skill.tokenBudget) {
    errors.push({
      kind: 'over-budget', skill: skill.name, origin: skill.origin,
      message: `${skill.origin}: the body of '${skill.name}' is ${bodyTokens} tokens, over its tokenBudget of ${skill.tokenBudget}; shorten it or raise tokenBudget`,
    });
  }
  return { skill, selectors, bodyTokens };
}

/** Every dependsOn cycle once, rotated to start at its smallest name and closed (`a -> b -> a`). */
function dependencyCycles(byName: ReadonlyMap<string, Skill>): string[][] {
  const found = new Map<string, string[]>();
  const done = new Set<string>();
  const visit = (name: string, stack: string[]): void => {
    const at = stack.indexOf(name);
    if (at >= 0) {
      const loop = stack.slice(at);
      const start = loop.indexOf([...loop].sort()[0] ?? name);
      const rotated = [...loop.slice(start), ...loop.slice(0, start)];
      found.set(rotated.join('>'), [...rotated, rotated[0] ?? name]);
      return;
    }
    if (done.has(name) || !byName.has(name)) return;
    stack.push(name);
    for (const dep of byName.get(name)?.dependsOn ?? []) visit(dep, stack);
    stack.pop();
    done.add(name);
  };
  for (const name of [...byName.keys()].sort()) visit(name, []);
  return [...found.values()];
}
