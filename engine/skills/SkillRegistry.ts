import { selectSkills, type SkillSelection } from './selectSkills';
import { builtinSelectors } from './selectors';
import type { SkillError } from './SkillError';
import type { Skill } from './SkillFile';
import type { CountTokens, SelectionContext, SelectorDefinition } from './SkillSelector';
import { type CompiledSkill, validateSkillSet } from './validateSkillSet';

const SELECTOR_TYPE = /^[a-z][a-z0-9-]*$/;

/**
 * The skills an engine may put in prompts, and the selector types they may use. Selector types
 * are looked up by name in a map filled by `registerSelector` (the built-ins `language`, `path`,
 * `keyword`, `role` and `phase` by default), so a new kind of trigger is a registration, never a
 * new branch here. `add` is all or nothing: a set with any error changes nothing, because a
 * prompt built from part of the intended skills fails silently where an error fails loudly.
 * `countTokens` is the port every body budget and selection budget is measured with.
 */
export class SkillRegistry {
  readonly #countTokens: CountTokens;
  readonly #selectorTypes = new Map<string, SelectorDefinition<unknown>>();
  #skills = new Map<string, CompiledSkill>();

  constructor(countTokens: CountTokens, selectorTypes: Readonly<Record<string, SelectorDefinition<unknown>>> = builtinSelectors) {
    this.#countTokens = countTokens;
    for (const [type, definition] of Object.entries(selectorTypes)) this.registerSelector(type, definition);
  }

  /**
   * Make selector `type` available to skills added from now on. Throws a `RangeError` (and
   * registers nothing) for a name that is not lowercase kebab-case or is already registered:
   * that is a programming error at startup, and silently replacing a built-in would change what
   * every existing skill selects.
   */
  registerSelector<P>(type: string, definition: SelectorDefinition<P>): void {
    if (!SELECTOR_TYPE.test(type)) throw new RangeError(`selector type '${type}' must be lowercase kebab-case`);
    if (this.#selectorTypes.has(type)) throw new RangeError(`selector type '${type}' is already registered`);
    this.#selectorTypes.set(type, definition as SelectorDefinition<unknown>);
  }

  /** The registered selector type names, sorted. */
  selectorTypes(): string[] {
    return [...this.#selectorTypes.keys()].sort();
  }

  /**
   * Validate `skills` together with those already added (see `validateSkillSet`) and return every
   * error; only when there are none do they join the registry. Adding a name that is already
   * registered is a `duplicate`, so a workspace skill cannot silently shadow a shipped one.
   */
  add(skills: readonly Skill[]): SkillError[] {
    const all = [...[...this.#skills.values()].map((c) => c.skill), ...skills];
    const { compiled, errors } = validateSkillSet(all, this.#selectorTypes, this.#countTokens);
    if (errors.length === 0) this.#skills = new Map(compiled.map((c) => [c.skill.name, c]));
    return errors;
  }

  /** Every added skill, by name. */
  skills(): Skill[] {
    return [...this.#skills.values()].map((c) => c.skill).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** The skills for one turn; see `selectSkills` for the rules. Only `selected` enters a prompt. */
  select(context: SelectionContext): SkillSelection {
    return selectSkills(this.#skills, context, this.#countTokens);
  }
}
