import { renderSkills } from './renderSkills';
import type { SkillError } from './SkillError';
import type { Skill } from './SkillFile';
import type { CountTokens, SelectionContext } from './SkillSelector';
import { type CompiledSkill, conflicts, dependencyClosure } from './validateSkillSet';

/** Why a registered skill is not in a selection. */
interface SkippedSkill {
  readonly name: string;
  readonly reason: 'not-matched' | 'conflict' | 'over-budget';
  readonly message: string;
}

/** A turn's skills: `selected` in prompt order, the `errors` a person should see, and every skip. */
export interface SkillSelection {
  readonly selected: Skill[];
  readonly errors: SkillError[];
  readonly skipped: SkippedSkill[];
}

/** Priority descending, then name: the order skills enter a prompt. */
const byPriority = (a: Skill, b: Skill): number => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Choose a turn's skills from a validated set. Roots are the always-on skills and the selected
 * skills any of whose selectors match; each brings its dependencies. Roots are taken always-on
 * first, then by priority and name: a root whose skills conflict with ones already taken is
 * skipped with a `conflict` error (so of two conflicting skills the higher priority stays, and an
 * always-on skill beats any selected one). Then, while `renderSkills` of the selection counts over
 * `context.budget`, the lowest-ranked non-always root is dropped with its dependencies no kept
 * skill needs, each reported `over-budget`; always-on skills are never dropped, and if they alone
 * exceed the budget that is reported too instead of claiming a fit. Every registered skill not
 * selected is in `skipped` with its reason, and `selected` is ordered by priority, then name.
 */
export function selectSkills(set: ReadonlyMap<string, CompiledSkill>, context: SelectionContext, countTokens: CountTokens): SkillSelection {
  if (typeof context.budget !== 'number' || Number.isNaN(context.budget) || context.budget < 0) {
    const message = `skill selection needs a budget of zero or more tokens, got ${String(context.budget)}`;
    return { selected: [], errors: [{ kind: 'malformed', key: 'budget', message }], skipped: [] };
  }
  const byName = new Map([...set].map(([name, c]) => [name, c.skill]));
  const errors: SkillError[] = [];
  const skipped = new Map<string, SkippedSkill>();
  const skip = (name: string, reason: SkippedSkill['reason'], message: string): void => {
    if (!skipped.has(name)) skipped.set(name, { name, reason, message });
  };

  const roots = [...set.values()]
    .filter((c) => c.skill.mode === 'always' || c.selectors.some((s) => s.definition.matches(s.params, context)))
    .map((c) => c.skill)
    .sort((a, b) => Number(b.mode === 'always') - Number(a.mode === 'always') || byPriority(a, b));

  const clashes = (a: string, b: string): boolean => {
    const x = byName.get(a);
    const y = byName.get(b);
    return x !== undefined && y !== undefined && conflicts(x, y);
  };
  const taken = new Set<string>();
  const kept: Skill[] = [];
  const refused: { needs: string[]; root: string; message: string }[] = [];
  for (const root of roots) {
    const needs = [...dependencyClosure(root.name, byName)];
    const clash = needs.flatMap((n) => [...taken].filter((t) => clashes(n, t)).map((t) => [n, t] as const))[0];
    if (!clash) {
      kept.push(root);
      needs.forEach((n) => taken.add(n));
      continue;
    }
    const [mine, theirs] = clash;
    const via = mine === root.name ? '' : ` (through its dependency '${mine}')`;
    const message = `skill '${root.name}' conflicts${via} with '${theirs}', which ranks higher and was kept`;
    errors.push({ kind: 'conflict', skill: root.name, origin: root.origin, related: [mine, theirs], message });
    refused.push({ needs, root: root.name, message });
  }
  // Only now is it known which dependencies of a refused root a kept root took after all.
  for (const { needs, root, message } of refused) {
    for (const n of needs) if (!taken.has(n)) skip(n, 'conflict', n === root ? message : `needed only by '${root}': ${message}`);
  }

  const closureOf = (roots: readonly Skill[]): Set<string> => new Set(roots.flatMap((r) => [...dependencyClosure(r.name, byName)]));
  const render = (names: Set<string>): string => renderSkills([...names].map((n) => byName.get(n)).filter((s) => s !== undefined).sort(byPriority));
  let names = closureOf(kept);
  let tokens = countTokens(render(names));
  while (tokens > context.budget) {
    const drop = kept.findLast((r) => r.mode !== 'always');
    if (!drop) break;
    kept.splice(kept.lastIndexOf(drop), 1);
    const remaining = closureOf(kept);
    // A root that a higher-ranked root also needs stays in; dropping it frees nothing.
    if (remaining.size === names.size) continue;
    const message = `skill '${drop.name}' (priority ${drop.priority}) was dropped: the selected skills took ${tokens} tokens, over the budget of ${context.budget}`;
    errors.push({ kind: 'over-budget', skill: drop.name, origin: drop.origin, message });
    for (const n of names) if (!remaining.has(n)) skip(n, 'over-budget', n === drop.name ? message : `needed only by '${drop.name}': ${message}`);
    names = remaining;
    tokens = countTokens(render(names));
  }
  if (tokens > context.budget) {
    errors.push({
      kind: 'over-budget', related: [...names].sort(),
      message: `always-on skills and their dependencies take ${tokens} tokens, over the budget of ${context.budget}; they are kept, so raise the budget or shorten them`,
    });
  }

  for (const name of [...byName.keys()].sort()) {
    if (names.has(name) || skipped.has(name)) continue;
    const skill = byName.get(name);
    skip(name, 'not-matched', skill?.selectors.length ? 'no selector matched this turn' : 'has no selectors; it enters a prompt only as a dependency');
  }
  const selected = [...names].map((n) => byName.get(n)).filter((s) => s !== undefined).sort(byPriority);
  return { selected, errors, skipped: [...skipped.values()] };
}
