import type { BlockCounter } from './BlockCounter';

/** The section tags `composeParts` wraps the layers in, counted once in every reserve. */
const FRAME = '<constraints>\n</constraints>\n<context>\n</context>\n<now>\n</now>\n';

/** The L3 status line (`[L3-tail]`): `Generation N · P% of budget · phase X`. */
export const statusLine = (generation: number, utilization: number, phase: string): string =>
  `Generation ${generation} · ${Math.round(utilization * 100)}% of budget · phase ${phase}`;

/** L3 as sent (`[L3-tail]`): the turn's volatile input, then the status line, at the tail. */
export const l3Text = (input: string, status: string): string => `${input ? `${input}\n` : ''}${status}\n`;

/**
 * Tokens a build reserves for L3 and the layer framing: the section tags, the turn's input and the
 * widest status line this phase can have (generation 9999 at 1000%), plus 2 for the newlines after
 * the input and the status line, so the prompt sent never outgrows what its generation counted.
 */
export function l3Reserve(blocks: Pick<BlockCounter, 'text'>, input: string, phase: string): number {
  const widestStatus = statusLine(9999, 10, phase);
  return blocks.text(FRAME) + blocks.text(input) + blocks.text(widestStatus) + 2;
}
