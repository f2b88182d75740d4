/** One group as the cut sees it. */
export interface CutGroup {
  /** Role of the group's first message: only a user group may start the kept history. */
  head: 'user' | 'assistant' | 'tool';
  tokens: number;
  turnId: string;
}

/** What must stay and how much room there is. */
export interface CutInput {
  groups: readonly CutGroup[];
  /** Tokens that stay whatever is cut: the system prompt and the summary (or its reserve). */
  fixedTokens: number;
  maxTokens: number;
  /** Newest turns that must stay verbatim (0: only the newest user-started suffix must). */
  keepTurns: number;
}

/** Groups `[0, index)` go; `tokensAfter` is fixed plus the kept groups. */
export interface Cut {
  index: number;
  tokensAfter: number;
  overBudget: boolean;
}

/** Index of the first group of the `k`-th newest turn (turns are contiguous runs of one turnId). */
function startOfRecentTurns(groups: readonly CutGroup[], k: number): number {
  let seen = 0;
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i];
    if (i === 0 || g?.turnId !== groups[i - 1]?.turnId) {
      seen++;
      if (seen >= k) return i;
    }
  }
  return 0;
}

/**
 * The oldest prefix of whole groups that must go for the rest to fit. Invariants: the cut is at a
 * user group (or 0), so the kept history still starts with a user message and no tool result is
 * parted from its call; the newest user-started suffix and the newest `keepTurns` turns always stay,
 * so a conversation is never emptied; among allowed cuts the one that keeps the most is chosen.
 * When no allowed cut fits, the latest allowed one is returned with `overBudget`.
 */
export function chooseCut(input: CutInput): Cut {
  const { groups, fixedTokens, maxTokens, keepTurns } = input;
  let limit = 0;
  groups.forEach((g, i) => {
    if (g.head === 'user') limit = i;
  });
  if (keepTurns > 0) limit = Math.min(limit, startOfRecentTurns(groups, keepTurns));
  const suffix = new Array<number>(groups.length + 1).fill(0);
  for (let i = groups.length - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] ?? 0) + (groups[i]?.tokens ?? 0);
  let last = 0;
  for (let i = 0; i <= limit; i++) {
    if (i > 0 && groups[i]?.head !== 'user') continue;
    last = i;
    const after = fixedTokens + (suffix[i] ?? 0);
    if (after <= maxTokens) return { index: i, tokensAfter: after, overBudget: false };
  }
  const after = fixedTokens + (suffix[last] ?? 0);
  return { index: last, tokensAfter: after, overBudget: after > maxTokens };
}
