/**
 * Where a request stopped sharing its prefix with the previous one (`[replay-reuse-break]`), so a
 * low prefix reuse can be traced to what caused it. Pure.
 * - `append`: everything up to the end of the previous request's L2 content is shared and L2
 *   grew: the loss is this step's new material and the tail, the bound DESIGN.md calls the physics
 *   of an append-only generation;
 * - `L3`: only the tail (status line, volatile input) differs;
 * - `L0`, `L1`: the static part changed (a boundary moved a new tier-1 item into L1, a pin…);
 * - `L2`: L2 changed before its previous end (a boundary re-packed, reordered or evicted blocks);
 * - `none`: the whole request is a prefix of the previous one.
 */
import { utf8Length } from '../../text/utf8';
import type { PromptParts } from '../../prompt/composeParts';

export type ReuseBreak = 'none' | 'append' | 'L3' | 'L0' | 'L1' | 'L2';
export const REUSE_BREAKS: readonly ReuseBreak[] = ['none', 'append', 'L3', 'L0', 'L1', 'L2'];

/** Byte offsets of a request's layer ends (L0, static = L0+L1, L2 content without its closing tag, total). */
export interface LayerEnds {
  l0: number;
  static: number;
  l2: number;
  total: number;
}

/** The layer ends of an engine prompt whose text is `parts.static + parts.dynamic` (`engineSegments`). */
export function engineLayerEnds(parts: PromptParts, totalBytes: number): LayerEnds {
  const blocks = parts.l2Blocks ?? (parts.layers.L2 ? [parts.layers.L2] : []);
  const tail = `${blocks.length > 0 ? '</context>\n' : ''}<now>\n${parts.layers.L3}</now>\n`;
  return { l0: utf8Length(parts.layers.L0), static: utf8Length(parts.static), l2: totalBytes - utf8Length(tail), total: totalBytes };
}

/** The break between a request and the previous one, from the shared prefix length in bytes. */
export function reuseBreak(shared: number, previous: LayerEnds, current: LayerEnds): ReuseBreak {
  if (shared >= current.total) return 'none';
  if (shared >= previous.l2) return current.l2 > previous.l2 ? 'append' : 'L3';
  if (shared < current.l0) return 'L0';
  if (shared < current.static) return 'L1';
  return 'L2';
}
