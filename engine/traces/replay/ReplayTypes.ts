/**
 * The values of a counterfactual replay: what the engine would have sent at every recorded step of
 * a trace, and what that would have cost. Plain data (structured-cloneable), so a worker thread
 * can post it as it is.
 */
import type { AgentRole } from '../../contract';
import type { Generation, Layer } from '../../generations/Generation';
import type { PromptParts } from '../../prompt/composeParts';
import type { Scope } from '../../pack/Scope';
import type { CostUsd, RunCost } from '../../pricing/costUsd';
import type { CacheProvider, CacheTtl } from '../../providers/cacheModel';
import type { StrategyName } from '../../strategies/Strategy';
import type { Tokenizer } from '../../tokens/Tokenizer';
import type { ReuseBreak } from './reuseBreak';
import type { RecordedSummary } from './recordedTypes';
import type { TtlChoice } from './cacheTtl';

/** Milliseconds from an arbitrary origin; only differences are used (engine overhead). */
export type Timer = () => number;

/** What every replay needs. */
interface ReplayCommonOptions {
  tokenizer: Tokenizer;
  provider: CacheProvider;
  /** Model name priced (cache scope, Anthropic's minimum cacheable length, list price). Default: the trace's recorded model, else a default per provider. */
  model?: string;
  /** Lifetime of the request's cache breakpoints (`[replay-ttl]`). Default: the recording's (`recordedTtl`), else 5 minutes. */
  ttl?: CacheTtl;
  /** Clock for the engine-overhead figures; the only non-deterministic input (default `performance.now` where it exists). */
  timer?: Timer;
}

export interface ReplayOptions extends ReplayCommonOptions {
  strategy: StrategyName;
  /** The agent's token budget (the engine never packs beyond it). */
  budget: number;
  /**
   * The provider's context window, in tokens. A step whose recorded prompt was larger, or whose
   * built request is larger, is refused like a provider would (`ContextLimitError`) and the engine
   * refreshes (`Engine.maybeRefresh`, at most twice per step). Absent: no window check.
   */
  window?: number;
  /** Let indicators refresh a context (`EngineOptions.autoRefresh`, off by default). */
  autoRefresh?: boolean;
  /** The agent's scope (default `{}`, as the runtime registers agents). */
  scope?: Scope;
  /** Also return the replayed agent's generations and latest prompt (`ReplayResult.capture`), for an inspector. */
  capture?: boolean;
}

export interface BaselineOptions extends ReplayCommonOptions {
  /** Send the fixed prefix (`fixedPrefix.ts`) first, as the recording agent did (default true). */
  instructions?: boolean;
  /** The model's context window in tokens: a request over it is invalid (`[replay-invalid]`). Absent: no window check. */
  window?: number;
}

/** What happened at one recorded step (one LLM call of the main agent). */
export interface StepMetrics {
  /** 0-based position among the replayed steps. */
  index: number;
  /** The trace's step number (importer `step`). */
  step: number;
  /** The subagent that made the call; absent for the main agent. */
  agentId?: string;
  /** `'compaction'`: the recorded call that wrote a compaction summary. */
  call?: 'compaction';
  /** When the request was priced (ms since the epoch): the step's recorded time, or the +30 s fallback. */
  at: number;
  /** Tokens of the request as priced: input + cacheRead + cacheWrite. */
  promptTokens: number;
  /** Of `promptTokens`, the fixed prefix's (`fixedPrefix.ts`): the same in every row, outside every row's budget. */
  prefixTokens: number;
  /** The engine's own count of the prompt it built (`Generation.tokens`, L3 reserve included); absent for the baseline. */
  engineTokens?: number;
  /** Tokens per prompt layer as the engine counted them (L3 = its reserve); absent for the baseline. */
  layers?: Record<Layer, number>;
  /** UTF-8 bytes of the request text, and of its prefix shared with the previous request. */
  promptBytes: number;
  reusedBytes: number;
  /** reusedBytes / promptBytes (0 for the first step). */
  prefixReuse: number;
  /** Where the prefix shared with the previous request ended (`reuseBreak.ts`); absent for the first step. */
  reuseBreak?: ReuseBreak;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written with a 1-hour lifetime. */
  cacheWrite1h: number;
  output: number;
  /**
   * Content references the recorded action needs (`[replay-recall]`: the lines a read returned, an
   * edit's old lines, a cited failure's lines; a name alone is none), and how many of them the
   * request holds (80% of their lines in it).
   */
  references: number;
  referencesHeld: number;
  /** referencesHeld / references; undefined when the action needs no content. */
  neededReferenceRecall?: number;
  /** Recorded re-reads of content the request does not hold: re-reads this row would force (`[replay-rereads]`). */
  rereadsForced: number;
  /**
   * `as_recorded` only: tool results it cleared at this step because the recorded prompt fell with
   * no compaction recorded (`CLEARING_DROP`), an inference from the billed usage.
   */
  clearedResults?: number;
  /** Tool results rendered in the request, and those whose call is not rendered in it. */
  toolResults: number;
  orphanedToolResults: number;
  /**
   * Why a provider would refuse the request (`requestValidity.ts`, `[replay-invalid]`); absent when
   * it would accept it. A refused request is priced as nothing sent (every token count 0, no
   * bytes, the cache model untouched).
   */
  invalid?: InvalidReason;
  /** The generation the request was built in (1 for the baseline's single transcript). */
  generation: number;
  /** The kind of boundary this step's build began with, if it began a generation. */
  boundary?: 'start' | 'rebuild' | 'refresh';
  /** Why that generation began (the engine's boundary reason). */
  boundaryReason?: string;
  /** Generation boundaries of kind refresh at this step (context-limit refreshes included). */
  refreshes: number;
  /** Of those, the refreshes forced by a context-limit refusal. */
  limitRefreshes: number;
  /** Over the budget: for an engine row its own count of the prompt (mandatory overflow), else the priced prompt less the fixed prefix. */
  overBudget: boolean;
  /** The recorded step's prompt was over the window given in the options. */
  recordedOverWindow: boolean;
  /** Wall time of the engine build(s) of this step, and the part spent counting tokens of new material. */
  overheadMs: number;
  tokenizeMs: number;
}

/** Sums and rates over all steps of a replay. */
export interface ReplayTotals {
  steps: number;
  promptTokens: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written with a 1-hour lifetime. */
  cacheWrite1h: number;
  output: number;
  /** `cacheHitRate` of the sums (`[hit-rate-def]`). */
  hitRate: number;
  /** US dollars at the priced model's list prices (`[cost-usd]`), split by billed part; null when the model has no list price. */
  costUsd: CostUsd | null;
  /** What `costUsd` rests on: the model priced, its rates with their source and date (or "no list price for …"). */
  pricing: Omit<RunCost, 'usd'>;
  promptBytes: number;
  reusedBytes: number;
  /** Byte-weighted reuse over the steps after the first (DESIGN.md "Metrics": an agent's reuse). */
  prefixReuse: number;
  /** Unweighted mean of the per-step reuse over the steps after the first. */
  meanPrefixReuse: number;
  /** Steps after the first by where their shared prefix ended, and the bytes they did not reuse. */
  reuseBreaks: Record<ReuseBreak, number>;
  lostBytes: Record<ReuseBreak, number>;
  meanPromptTokens: number;
  maxPromptTokens: number;
  references: number;
  referencesHeld: number;
  /** Recall per step: the mean of the per-step recall over the steps that need content; undefined when none does. */
  neededReferenceRecall?: number;
  /** Recall pooled: referencesHeld / references over all steps; undefined when there are none. */
  pooledReferenceRecall?: number;
  /** Re-reads this row would force, over all steps (`[replay-rereads]`). */
  rereadsForced: number;
  toolResults: number;
  orphanedToolResults: number;
  /** Steps whose request a provider would refuse (`[replay-invalid]`), and how many for each reason. */
  invalidRequests: number;
  invalidReasons: Record<InvalidReason, number>;
  /** Generations the run went through (the last step's generation number). */
  generations: number;
  rebuilds: number;
  refreshes: number;
  limitRefreshes: number;
  overBudgetSteps: number;
  recordedOverWindowSteps: number;
  overheadMs: number;
  overheadP50Ms: number;
  overheadP95Ms: number;
  tokenizeMs: number;
  /** p50 of (overhead − tokenize) per step: the engine's own work once token counts are known. */
  overheadExclTokenizeP50Ms: number;
}

/** What the conversion of the trace into items and messages had to leave out, by kind. */
export interface ReplayRepairs {
  /** Results whose call never appears (never rendered: they would be orphans). */
  unmatchedResults: number;
  /** Second results for a call, and calls whose id was used before. */
  duplicates: number;
  /** Results recorded before their call line, held until the call came. */
  reorderedResults: number;
  /** Subagent events left out of the main thread. */
  subagentEvents: number;
  /**
   * Transcript rows (baselines, peers) only: calls the recording never answered before the agent's
   * next call, sent with a stand-in result, and results recorded after that, which replace it (`transcript.ts`).
   */
  standInResults?: number;
  lateResults?: number;
}

/** The replayed agent's engine state at the end of a replay (`ReplayOptions.capture`): plain data. */
interface ReplayCapture {
  /** Every generation, oldest first, as `Engine.generations` gives them. */
  generations: Generation[];
  /** The layers of the last prompt built (of the current generation); null before any step. */
  prompt: PromptParts | null;
}

/** The replays that are not engine strategies: the no-limit transcript and the agent as it ran. */
export type BaselineName = 'full_history_baseline' | 'as_recorded';

export interface ReplayResult {
  strategy: StrategyName | BaselineName;
  /** The budget of an engine replay; null for the baseline (no truncation). */
  budget: number | null;
  provider: CacheProvider;
  model: string;
  /** Where `model` came from: `--model`, the recording, or the provider's default (the trace names none). */
  modelSource: ModelSource;
  /** The breakpoints' lifetime and why (`[replay-ttl]`). */
  cacheTtl: TtlChoice;
  steps: StepMetrics[];
  totals: ReplayTotals;
  repairs: ReplayRepairs;
  /** How the fixed prefix every row sends was obtained (recorded, or a calibrated stand-in marked estimated). */
  prefix: FixedPrefixSummary;
  /** Engine replays: every replayed agent (`agentId` null for the main one) with the role it was given and why (`[replay-roles]`). */
  agents?: { agentId: string | null; role: AgentRole; why: string }[];
  /** The context window the requests were held against and why (`[replay-window-default]`): set by `runReplayJob` when the job asks for one. */
  window?: WindowChoice;
  capture?: ReplayCapture;
  /**
   * What the recording agent's provider billed for the trace, and on the baseline how close the
   * cache model comes to it (`recordedSummary`): set by `runReplayJob` when the trace records usage.
   */
  recorded?: RecordedSummary;
}

// ---- parts of a result, defined here so the modules that compute them import this file, never the reverse ----

/** Where a replay's priced model came from: `--model` (the option), the recording, or the provider's default. */
export type ModelSource = 'option' | 'recording' | 'default';

/** Where a replay's window came from. */
type WindowSource = 'option' | 'recording' | 'table' | 'none';

export interface WindowChoice {
  /** The largest prompt, in the provider's tokens, a request may have; null when no window is known (nothing is checked). */
  tokens: number | null;
  source: WindowSource;
  /** The model whose window it is. */
  model: string;
  /** What the figure rests on, in words (the table row's source and date, the recording, the option). */
  why: string;
}

/** How the trace's fixed prefix was obtained, for every output to state. */
export interface FixedPrefixSummary {
  /** `recorded`: system prompt and tools as sent; `instructions`: the recorded instructions only; `none`. */
  source: 'recorded' | 'instructions' | 'none';
  /** Tokens of the main agent's recorded prefix (its first). */
  recordedTokens: number;
  /** The main agent's stand-in tokens (0: none). */
  estimatedTokens: number;
  /** A stand-in is part of some agent's prefix. */
  estimated: boolean;
  /** Provider tokens per counted token every row is priced with (`[replay-token-scale]`). */
  tokenScale: number;
  /** One line a person can check, e.g. "estimated: 16,556 tokens (first call billed 20,479 − counted 3,923)". */
  note: string;
}

/** Why a provider would refuse a request, in the order they are checked (the first that applies is reported). */
export const INVALID_REASONS = ['empty_request', 'orphaned_result', 'unanswered_call', 'over_window'] as const;

export type InvalidReason = (typeof INVALID_REASONS)[number];
