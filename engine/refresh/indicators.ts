import type { ContextItem } from '../items/ContextItem';

/**
 * Signals that a context is degrading (spec "Garbage collection / refresh"). Computed and recorded
 * on every build (`[indicators-recorded]`); none triggers a refresh by itself (`[no-single-trigger]`).
 */
export interface Indicators {
  /** Prompt tokens / budget. */
  utilization: number;
  /** Most repetitions of one tool signature among this generation's items. */
  repeatedToolSignatures: number;
  /** Failures repeated on the same signature or file in this generation. */
  repeatedFailedEdits: number;
  /** Builds since the last new finding, decision or report in this generation. */
  stalledBuilds: number;
  /** Share of included tokens that belong to another phase. */
  obsoletePhaseShare: number;
  /** Share of included tokens that are tool output, transcripts or ephemeral material. */
  transcriptShare: number;
  /** Names of the indicators past their thresholds. */
  fired: string[];
}

/** Thresholds at which an indicator counts as fired. */
export const indicatorThresholds = {
  utilization: 0.85,
  repeatedToolSignatures: 3,
  repeatedFailedEdits: 2,
  stalledBuilds: 8,
  obsoletePhaseShare: 0.3,
  transcriptShare: 0.5,
} as const;

export interface IndicatorInput {
  tokens: number;
  budget: number;
  phase: string;
  /** Items of this generation produced by the agent, in arrival order. */
  ownItems: readonly ContextItem[];
  /** Included items with their tokens. */
  included: readonly { item: ContextItem; tokens: number }[];
  stalledBuilds: number;
}

function maxRepeat(keys: readonly string[]): number {
  const counts = new Map<string, number>();
  let max = 0;
  for (const k of keys) {
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    if (n > max) max = n;
  }
  return max;
}

export function computeIndicators(i: IndicatorInput): Indicators {
  const signatures = i.ownItems.flatMap((it) => (it.signature ? [it.signature] : []));
  const failures = i.ownItems.filter((it) => it.kind === 'failure').map((it) => it.signature ?? (it.provenance.files.join(',') || it.title));
  const repeatedFailures = maxRepeat(failures);
  let total = 0;
  let otherPhase = 0;
  let transcript = 0;
  for (const { item, tokens } of i.included) {
    total += tokens;
    if (item.phase !== undefined && item.phase !== i.phase) otherPhase += tokens;
    if (item.kind === 'tool_output' || item.kind === 'transcript' || item.class === 'ephemeral' || item.class === 'raw_history') transcript += tokens;
  }
  const v = {
    utilization: i.budget > 0 ? i.tokens / i.budget : 0,
    repeatedToolSignatures: maxRepeat(signatures),
    repeatedFailedEdits: repeatedFailures > 1 ? repeatedFailures : 0,
    stalledBuilds: i.stalledBuilds,
    obsoletePhaseShare: total > 0 ? otherPhase / total : 0,
    transcriptShare: total > 0 ? transcript / total : 0,
  };
  const fired = (Object.keys(indicatorThresholds) as (keyof typeof indicatorThresholds)[]).filter((k) => v[k] >= indicatorThresholds[k]);
  return { ...v, fired };
}

/**
 * The `autoRefresh` rule (off by default; `[auto-refresh-rule]`): refresh only when utilization has
 * fired together with at least one other indicator, so no single indicator ever decides.
 */
export function autoRefreshDue(ind: Indicators): boolean {
  return ind.fired.includes('utilization') && ind.fired.length >= 2;
}
