/**
 * What a run records per agent so strategies can be compared later (spec "Strategies";
 * `[run-stats]`).
 */
export interface RunStats {
  generations: number;
  builds: number;
  /** Prompt tokens summed over every build. */
  promptTokens: number;
  /** Bytes of every prompt, and of the prefix each shared with the previous one (prefix reuse). */
  promptBytes: number;
  reusedBytes: number;
  /** Why each generation after the first began (the newest {@link REASONS_KEPT}; `generations` counts them all). */
  refreshReasons: string[];
  /** Turns retried after a context-limit refresh. */
  retries: number;
  /** Items whose action signature repeated an earlier one of the same agent. */
  repeatedActions: number;
}

/** Refresh reasons a run's stats keep per agent, so a long run's memory does not grow with its generations. */
export const REASONS_KEPT = 200;

export const emptyRunStats = (): RunStats => ({
  generations: 0,
  builds: 0,
  promptTokens: 0,
  promptBytes: 0,
  reusedBytes: 0,
  refreshReasons: [],
  retries: 0,
  repeatedActions: 0,
});

/** Action signatures remembered per agent for `repeatedActions` (the newest distinct ones, `[bounded-history]`). */
export const SIGNATURES_KEPT = 2000;

/**
 * What a new item's action signature does to the agent's remembered ones (`[run-stats]`): a
 * signature seen before is a repeated action; a new one is remembered, and when
 * {@link SIGNATURES_KEPT} are remembered already the oldest remembered one is forgotten (`evict`).
 */
export function signatureStep(seen: ReadonlySet<string>, signature: string): { repeated: boolean; evict?: string } {
  if (seen.has(signature)) return { repeated: true };
  if (seen.size >= SIGNATURES_KEPT) return { repeated: false, evict: seen.values().next().value as string };
  return { repeated: false };
}
