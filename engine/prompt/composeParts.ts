import { sha256Hex } from '../text/hash';

/** The four layers of one prompt as text. */
export interface PromptLayers {
  L0: string;
  L1: string;
  L2: string;
  L3: string;
}

/** The prompt split for provider adapters: `static` (L0+L1) is cached, `dynamic` (L2+L3) follows. */
export interface PromptParts {
  layers: PromptLayers;
  static: string;
  dynamic: string;
  /** SHA-256 of `static`, so an adapter can tell an unchanged static part without comparing it. */
  prefixHash: string;
  /**
   * L2 as the blocks it was built from, in order (`L2` is their concatenation). Within a generation
   * L2 only appends, so a provider request that sends one content block per entry keeps every
   * earlier block boundary, and a prompt cache finds the previous request's prefix there.
   */
  l2Blocks?: readonly string[];
}

const section = (name: string, body: string) => (body ? `<${name}>\n${body}</${name}>\n` : '');

/**
 * Join the layers in cache order (spec `prompt.ComposeParts`; `[compose-parts]`): L0, L1, L2, L3.
 * Empty layers leave no trace, so adding one later does not shift earlier bytes.
 */
export function composeParts(layers: PromptLayers): PromptParts {
  const stat = layers.L0 + section('constraints', layers.L1);
  const dynamic = section('context', layers.L2) + section('now', layers.L3);
  return { layers, static: stat, dynamic, prefixHash: prefixHash(stat) };
}

export function prefixHash(staticPart: string): string {
  return sha256Hex(staticPart);
}
