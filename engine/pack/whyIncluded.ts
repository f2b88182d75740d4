import type { Tier } from '../items/tiers';
import type { ScoredItem } from '../retrieve/retrieve';
import type { ScoreParts } from '../retrieve/score';

const tierLabel: Record<Tier, string> = {
  1: 'tier 1 (objective, task, acceptance, constraints, pinned)',
  2: 'tier 2 (code, verified findings, failures)',
  3: 'tier 3 (architecture, parent reports)',
  4: 'tier 4 (optional)',
};

const PART_NAMES = Object.keys({
  keywords: 0,
  files: 0,
  symbols: 0,
  recency: 0,
  confidence: 0,
  durability: 0,
  role: 0,
  phase: 0,
  failures: 0,
  task: 0,
  prior: 0,
} satisfies Record<keyof ScoreParts, 0>) as (keyof ScoreParts)[];

/** A one-line reason an item is in a context: its tier and the (up to three) strongest parts of its score. */
export function whyIncluded(c: ScoredItem, tier: Tier): string {
  if (c.item.pinned) return 'pinned by a user';
  if (c.item.mandatory) return 'mandatory for the task';
  // The three largest non-zero parts, ties by name; a small insertion keeps this allocation-light.
  const top: (keyof ScoreParts)[] = [];
  for (const k of PART_NAMES) {
    const v = c.parts[k];
    if (!(v > 0)) continue;
    let at = top.length;
    while (at > 0) {
      const prev = top[at - 1] as keyof ScoreParts;
      const pv = c.parts[prev];
      if (pv > v || (pv === v && prev < k)) break;
      at--;
    }
    if (at < 3) {
      top.splice(at, 0, k);
      if (top.length > 3) top.pop();
    }
  }
  const detail = top.map((k) => `${k} ${c.parts[k].toFixed(2)}`).join(', ');
  return `${tierLabel[tier]}, score ${c.score.toFixed(2)}${detail ? ` (${detail})` : ''}`;
}
