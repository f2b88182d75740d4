import type { z } from 'zod';

/**
 * What a turn tells skill selection: the agent's role and phase, the task text, the
 * workspace-relative files it touches, the languages it involves (languages of the files'
 * extensions are added to these), and `budget`, the most tokens the rendered skills may take in
 * this agent's prompt. `attributes` carries any further facts a custom selector type reads
 * (for example `{ env: 'ci' }`), so adding a selector type never changes this type.
 */
export interface SelectionContext {
  readonly role: string;
  readonly phase: string;
  readonly task: string;
  readonly files: readonly string[];
  readonly languages: readonly string[];
  readonly budget: number;
  readonly attributes?: Readonly<Record<string, string>>;
}

/** The token-counting port: tokens in `text`, deterministic, never throws. */
export type CountTokens = (text: string) => number;

/**
 * A selector type: the zod `schema` of its params (everything in `{ type, ...params }` except
 * `type`; make it strict so a misspelt param is a `malformed` error when skills are added) and a
 * pure `matches` over the parsed params and the turn. Registering one is the only way to add a
 * selector type; the registry looks types up by name and never branches on them.
 */
export interface SelectorDefinition<P> {
  readonly schema: z.ZodType<P>;
  matches(params: P, context: SelectionContext): boolean;
}
