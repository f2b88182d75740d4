/**
 * The types of what a recording's provider billed and of the cache model's accuracy against it
 * (`recordedTruth.ts` computes them). Types only, importing nothing of the replay, so the replay's
 * result type (`ReplayTypes.ts`) can carry them without a cycle.
 */
import type { CostUsd, RunCost } from '../../pricing/costUsd';
import type { CacheProvider } from '../../providers/cacheModel';

export interface RecordedStep {
  step: number;
  /** The subagent that made the call; absent for the main agent. */
  agentId?: string;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written for an hour (0 when the format does not split writes). */
  cacheWrite1h: number;
  output: number;
  /** input + cacheRead + cacheWrite. */
  prompt: number;
  /** The step's recorded time (ms since the epoch), when the trace has one. */
  at?: number;
}

export interface RecordedTruth {
  /** Main-agent steps, and those with a recorded usage. */
  steps: number;
  callsWithUsage: number;
  promptTokens: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
  /** `cacheHitRate` of the sums; 0 when nothing was recorded. */
  hitRate: number;
  model?: string;
  /** The recorded usage at the recorded model's list prices (`[cost-usd]`); null without a list price (or a model). */
  costUsd: CostUsd | null;
  pricing: Omit<RunCost, 'usd'>;
  perStep: RecordedStep[];
}

export interface StepAccuracy {
  step: number;
  agentId?: string;
  recordedPrompt: number;
  modelPrompt: number;
  recordedCacheRead: number;
  modelCacheRead: number;
  /** (model − recorded) / recorded; undefined when the recorded figure is 0. */
  promptError?: number;
  cacheReadError?: number;
  /** Modelled hit rate minus recorded hit rate (`cacheHitRate` of each), in absolute terms. */
  hitRateDelta: number;
}

export interface ModelAccuracy {
  /** Steps present in both, with a recorded usage. */
  matched: number;
  perStep: StepAccuracy[];
  /** Relative error of the summed prompt tokens and cache reads over the matched steps. */
  promptError?: number;
  cacheReadError?: number;
  /** Means of the per-step absolute relative errors. */
  meanAbsPromptError?: number;
  meanAbsCacheReadError?: number;
  recordedHitRate: number;
  modelHitRate: number;
  /** Sums over the matched steps, recorded and modelled. */
  recordedPrompt: number;
  modelPrompt: number;
  recordedCacheRead: number;
  modelCacheRead: number;
}

/**
 * What a comparison reports beside a replay of a trace (`[replay-truth-reported]`): the recorded
 * usage's totals and re-reads, and for the baselines (the as-recorded one is the reference; the full-history
 * one shows what compaction saved) the cache model's accuracy, both without their per-step
 * lists. Undefined when the trace records no usage.
 */
export type RecordedSummary = Omit<RecordedTruth, 'perStep'> & {
  /** Reads of what the same agent had already read and seen (`recordedRereads`, `[replay-rereads]`). */
  rereads: number;
  accuracy?: Omit<ModelAccuracy, 'perStep'> & { provider: CacheProvider };
};
