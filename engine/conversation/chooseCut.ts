/** One group as the cut sees it. */
interface CutGroup {
  /** Role of the group's first message: a kept history that starts with a non-user group needs the resume bridge. */
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
  /** Newest turns that must stay verbatim; at least the newest one always stays. */
  keepTurns: number;
  /** Tokens of the fixed user message that opens a kept history whose first group is not a user message. */
  bridgeTokens: number;
}

/** Groups `[0, index)` go; `tokensAfter` is fixed plus the kept groups (and the bridge when it is needed). */
export interface Cut {
  index: number;
  tokensAfter: number;
  overBudget: boolean;
}

/** Index of the first group of the `k`-th newest turn (turns are contiguous runs of one turnId). */
function startOfRecentTurns(groups: readonly CutGroup[], k: number): number {
  let seen = 0;
  for (let i = groups.length - 1; i >= 0; i--) {
    if (i === 0 || groups[i]?.turnId !== groups[i - 1]?.turnId) {
      seen++;
      if (seen >= k) return i;
    }
  }
  return 0;
}

/**
 * The oldest prefix of whole groups that must go for the rest to fit. Invariants: the cut is at a
 * turn boundary, so no group is split (a tool result is never parted from its call) and no turn is
 * half summarized and half kept (`[checkpoint-disjoint]`); the newest `max(1, keepTurns)` turns
 * always stay, so a conversation is never emptied; a kept history that starts with an assistant
 * group is counted with the bridge that will open it; among allowed cuts the one that keeps the
 * most is chosen. When no allowed cut fits, the latest allowed one is returned with `overBudget`.
 */
export function chooseCut(input: CutInput): Cut {
  const { groups, fixedTokens, maxTokens, keepTurns, bridgeTokens } = input;
  const limit = startOfRecentTurns(groups, Math.max(1, keepTurns));
  const suffix = new Array<number>(groups.length + 1).fill(0);
  for (let i = groups.length - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] ?? 0) + (groups[i]?.tokens ?? 0);
  const after = (i: number) => fixedTokens + (suffix[i] ?? 0) + (groups[i] !== undefined && groups[i]?.head !== 'user' ? bridgeTokens : 0);
  let last = 0;
  for (let i = 0; i <= limit; i++) {
    if (i > 0 && groups[i]?.turnId === groups[i - 1]?.turnId) continue;
    last = i;
    if (after(i) <= maxTokens) return { index: i, tokensAfter: after(i), overBudget: false };
  }
  return { index: last, tokensAfter: after(last), overBudget: after(last) > maxTokens };
}
