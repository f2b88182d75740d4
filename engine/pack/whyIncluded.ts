import type { Tier } from '../items/tiers';
import type { ScoredItem } from '../retrieve/retrieve';
import type { ScoreParts } from '../retrieve/score';

const tierLabel: Record<Tier, string> = {
  1: 'tier 1 (objective, task, acceptance, constraints, pinned)',
  2: 'tier 2 (code, verified findings, failures)',
  3: 'tier 3 (architecture, parent reports)',
  4: 'tier 4 (optional)',
};

/** A one-line reason an item is in a context: its tier and the strongest parts of its score. */
export function whyIncluded(c: ScoredItem, tier: Tier): string {
  if (c.item.pinned) return 'pinned by a user';
  if (c.item.mandatory) return 'mandatory for the task';
  const top = (Object.entries(c.parts) as [keyof ScoreParts, number][])
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`);
  return `${tierLabel[tier]}, score ${c.score.toFixed(2)}${top.length ? ` (${top.join(', ')})` : ''}`;
}
