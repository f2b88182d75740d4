import { z } from 'zod';
import { COMPARISON_BUDGET, COMPARISON_MAX_BUDGETS, COMPARISON_MAX_TRACES, COMPARISON_WINDOW, MAX_TRACE_CONTENT_BYTES } from '../shared/limits';
import { COMPARISON_STRATEGIES, ENGINE_STRATEGIES } from '../shared/strategyNames';

// The limits and names live in the pure layer (engine/shared), which the renderer imports too.
export { COMPARISON_BUDGET, COMPARISON_MAX_TRACES, COMPARISON_WINDOW, MAX_TRACE_CONTENT_BYTES } from '../shared/limits';

/**
 * DTOs of imported traces and of the comparisons that replay them: a recorded agent session is
 * imported once into the workspace catalog (its normalized event stream), and a comparison replays
 * some of them under several context strategies at one budget, priced by the provider cache model.
 */

/** The trace formats the host imports (the importers' `TraceFormat`). */
const TraceFormatSchema = z.enum([
  'openai-messages-json',
  'mini-swe-agent-traj-json',
  'claude-code-jsonl',
  'codex-rollout-jsonl',
  'swe-agent-traj',
  'gemini-cli-jsonl',
  'gemini-cli-json',
  'opencode-export-json',
  'opencode-sqlite',
  'atif-trajectory-json',
]);

export const TraceDtoSchema = z.object({
  /** `tr_` + the first 16 hex digits of the file's SHA-256: the same bytes are the same trace. */
  id: z.string(),
  /** The file's base name. */
  name: z.string(),
  format: TraceFormatSchema,
  /** Where the file was when it was imported (it is not read again). */
  sourcePath: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** ISO-8601 time of the import. */
  importedAt: z.string(),
  /** The recorded LLM calls of every agent (the main one and its subagents): the steps a replay prices. */
  steps: z.number().int().nonnegative(),
  /** The tool calls of every agent. */
  toolCalls: z.number().int().nonnegative(),
  /** Normalized events of the whole trace (subagents included). */
  eventCount: z.number().int().nonnegative(),
});
export type TraceDto = z.infer<typeof TraceDtoSchema>;

/** A live session file of Claude Code or Codex CLI found on the host's machine (`listSessions`). */
export const SessionDtoSchema = z.object({
  path: z.string(),
  tool: z.enum(['claude-code', 'codex']),
  /** The recorded working folder's name (else Claude Code's project folder). */
  project: z.string(),
  cwd: z.string().nullable(),
  model: z.string().nullable(),
  /** ISO-8601 start of the session, from its first lines; null when they do not say. */
  startedAt: z.string().nullable(),
  size: z.number().int().nonnegative(),
  /** ISO-8601 time of the last write. */
  modifiedAt: z.string(),
  /** Written to in the last minute and not `done`: probably still running. */
  growing: z.boolean(),
  /** Its last turn ended and the file has been quiet since its last write (`[live-done]`, the rule an attached session's main agent follows). */
  done: z.boolean(),
  /** Subagents whose own files belong to the session (attached and imported with it). */
  subagents: z.number().int().nonnegative(),
});
export type SessionDto = z.infer<typeof SessionDtoSchema>;

/** Figures of an attached session, recorded (`real`) or Strata's counterfactual (`shadow`). */
const LiveFiguresSchema = z.object({
  steps: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  input: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  output: z.number().nonnegative(),
  hitRate: z.number().min(0).max(1),
  /** The prompt tokens (input, cache reads and writes) at the model's list price in US dollars; null without one. */
  promptUsd: z.number().nonnegative().nullable(),
});

/** An attached live session (`attachSession`): its file's state and the figures so far. */
export const LiveSessionDtoSchema = z.object({
  sessionId: z.string(),
  /** Increases with every change of the session's figures or state, so a view can drop an older answer than an event it applied. */
  revision: z.number().int().nonnegative(),
  path: z.string(),
  strategy: z.string(),
  budget: z.number().int().positive(),
  /** The file's state: following, waiting, truncated, rotated, deleted or error (with `message`). */
  status: z.enum(['following', 'waiting', 'truncated', 'rotated', 'deleted', 'error']),
  message: z.string(),
  lines: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
  model: z.string().nullable(),
  /** The recorded model's list prices with their source and date, or "no list price for <model>". */
  priceNote: z.string(),
  real: LiveFiguresSchema,
  /** Null until the first counterfactual replay ends. */
  shadow: LiveFiguresSchema.extend({
    prefixReuse: z.number().min(0).max(1),
    neededReferenceRecall: z.number().min(0).max(1).nullable(),
    /** The generation Strata would be in now, and the refreshes it would have made. */
    generation: z.number().int().nonnegative(),
    refreshes: z.number().int().nonnegative(),
    /** Events the replay covered (it trails `events` while one runs). */
    replayedEvents: z.number().int().nonnegative(),
    /** The provider cache model that priced the replay (the recording agent's provider). */
    provider: z.enum(['openai', 'anthropic']),
  }).nullable(),
  shadowError: z.string().nullable(),
});
export type LiveSessionDto = z.infer<typeof LiveSessionDtoSchema>;

/** An attached session with its per-step series, real and counterfactual (`getSession`). */
export const LiveSessionDetailDtoSchema = z.object({
  session: LiveSessionDtoSchema,
  real: z.array(z.object({ step: z.number().int(), prompt: z.number(), input: z.number(), cacheRead: z.number(), cacheWrite: z.number(), output: z.number(), promptUsd: z.number().nullable() })),
  shadow: z.array(
    z.object({
      step: z.number().int(),
      promptTokens: z.number(),
      input: z.number(),
      cacheRead: z.number(),
      cacheWrite: z.number(),
      prefixReuse: z.number(),
      neededReferenceRecall: z.number().nullable(),
      generation: z.number().int(),
      promptUsd: z.number().nullable(),
    }),
  ),
  /** Steps where the recording agent's context had just been compacted (the first step after each compaction). */
  compactions: z.array(z.number().int()),
  /** Steps where Strata's replay began a new generation (after its first), by a rebuild or a refresh. */
  generations: z.array(z.object({ step: z.number().int(), generation: z.number().int().positive(), kind: z.enum(['rebuild', 'refresh']) })),
});
export type LiveSessionDetailDto = z.infer<typeof LiveSessionDetailDtoSchema>;

export const ImportTraceContentArgsSchema = z
  .object({
    /** The file's base name as the view has it (a path is reduced to its base name). */
    name: z.string().min(1).max(255),
    /** The whole file as text (a string never has fewer UTF-16 units than UTF-8 bytes are counted later). */
    content: z.string().min(1, 'the file is empty').max(MAX_TRACE_CONTENT_BYTES, `traces up to ${MAX_TRACE_CONTENT_BYTES / 2 ** 20} MiB can be imported by content; import a larger file by its path`),
  })
  .strict();

/**
 * The engine's strategies, and the two baselines priced without the engine: the plain transcript
 * with no limit (`full_history_baseline`) and the agent as it actually ran, following its own
 * compactions (`as_recorded`).
 */
export const ComparisonStrategySchema = z.enum(COMPARISON_STRATEGIES);
export type ComparisonStrategy = z.infer<typeof ComparisonStrategySchema>;
/** The engine's own strategies (an attached session replays under one of them). */
export const EngineStrategySchema = z.enum(ENGINE_STRATEGIES);

/** Anthropic's two cache lifetimes (`cache_control.ttl`). */
const CacheTtlSchema = z.enum(['5m', '1h']);

/** A replay's cache lifetime and why: from the recording, chosen in the options, or the 5-minute default. */
const CacheTtlChoiceSchema = z.object({ ttl: CacheTtlSchema, source: z.enum(['recording', 'option', 'default']) });

/**
 * A replay's context window and where it came from: `--window` (the option), what the recording
 * states, the model table (`engine/models/contextWindows.ts`), or none known (`tokens` null).
 */
const WindowChoiceSchema = z.object({
  tokens: z.number().int().positive().nullable(),
  source: z.enum(['option', 'recording', 'table', 'none']),
  model: z.string(),
  why: z.string(),
});

/** US dollars at list prices, per billed part: prompt = input + cacheRead + cacheWrite, total = prompt + output. */
const CostUsdDtoSchema = z.object({
  input: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  output: z.number().nonnegative(),
  prompt: z.number().nonnegative(),
  total: z.number().nonnegative(),
});

const BudgetSchema = z.number().int().min(COMPARISON_BUDGET.min).max(COMPARISON_BUDGET.max);

export const StartComparisonArgsSchema = z
  .object({
    traceIds: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(COMPARISON_MAX_TRACES)
      .refine((ids) => new Set(ids).size === ids.length, 'trace ids must not repeat'),
    strategies: z
      .array(ComparisonStrategySchema)
      .min(1)
      .max(ComparisonStrategySchema.options.length)
      .refine((s) => new Set(s).size === s.length, 'strategies must not repeat'),
    /** The agents' token budget (the baseline ignores it); give this or `budgets`. */
    budget: BudgetSchema.optional(),
    /** Several budgets: every engine strategy replays at each (the baselines, which have none, once); give this or `budget`. */
    budgets: z
      .array(BudgetSchema)
      .min(1)
      .max(COMPARISON_MAX_BUDGETS)
      .refine((b) => new Set(b).size === b.length, 'budgets must not repeat')
      .optional(),
    /** Whose prompt cache prices the calls (default anthropic). */
    provider: z.enum(['anthropic', 'openai']).optional(),
    /** The lifetime of every cache breakpoint (as `strata compare --ttl`); default each recording's, else 5m. */
    ttl: CacheTtlSchema.optional(),
    /** Price every trace as this model (as `strata compare --model`); default each trace's recorded model. */
    model: z.string().trim().min(1).max(200).optional(),
    /** The context window every request is held against (as `strata compare --window`); default the recording's, else the priced model's documented one, else none. */
    window: z.number().int().min(COMPARISON_WINDOW.min).max(COMPARISON_WINDOW.max).optional(),
  })
  .strict()
  .refine((a) => (a.budget === undefined) !== (a.budgets === undefined), { message: 'give one budget or a list of budgets', path: ['budgets'] });

/** `cancelled`: stopped by `cancelComparison`; the replays that had finished keep their results. */
export const ComparisonStatusSchema = z.enum(['running', 'finished', 'failed', 'cancelled']);

/** One replay's figures, as `strata compare` tabulates them (`compareRows` of the one result). */
const ComparisonTotalsDtoSchema = z.object({
  steps: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  meanPromptTokens: z.number().int().nonnegative(),
  /** Prompt tokens not read from a cache (uncached input and cache writes). */
  uncachedTokens: z.number().int().nonnegative(),
  /** The prompt tokens' parts (disjoint), for hit rates of sums. */
  input: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
  /** US dollars at the priced model's list prices; null when that model has no list price. */
  costUsd: CostUsdDtoSchema.nullable(),
  /** The model priced. */
  model: z.string(),
  /** The model's list prices with their source and the date they were read, or "no list price for <model>". */
  priceNote: z.string(),
  /** The cache breakpoints' lifetime and why. */
  cacheTtl: CacheTtlChoiceSchema,
  /** The context window requests were held against and where it came from; null when the replay checked none. */
  window: WindowChoiceSchema.nullable(),
  hitRate: z.number().min(0).max(1),
  prefixReuse: z.number().min(0).max(1),
  /** Bytes of the prompts after the first and of their prefixes shared with the previous prompt (prefixReuse = reused / prompt). */
  reuseBytes: z.object({ reused: z.number().int().nonnegative(), prompt: z.number().int().nonnegative() }),
  /**
   * Needed-reference recall per step: the mean over the steps whose recorded action needs content
   * (the lines a read returned, an edit's old lines, a failure it cites; a name alone does not
   * count) of the share of it the request held; null when no step needs any.
   */
  neededReferenceRecall: z.number().min(0).max(1).nullable(),
  /** Needed-reference recall pooled: content references held / needed over every step; null when none is needed. */
  pooledReferenceRecall: z.number().min(0).max(1).nullable(),
  /** The content references needed and held over every step (pooled recall = held / needed), for sums over traces. */
  references: z.object({ needed: z.number().int().nonnegative(), held: z.number().int().nonnegative() }),
  /** Recorded re-reads of content the agent had seen that this replay's requests no longer held: re-reads it would force. */
  rereadsForced: z.number().int().nonnegative(),
  orphans: z.number().int().nonnegative(),
  /** Requests a provider would refuse (nothing after the fixed prefix, an orphaned result, an unanswered call, over the window), priced as nothing sent. */
  invalid: z.number().int().nonnegative(),
  refreshes: z.number().int().nonnegative(),
  /** Median wall time of the engine's work per step (machine-dependent). */
  overheadP50Ms: z.number().nonnegative(),
});

/** One replayed step, for the charts. */
const ComparisonStepDtoSchema = z.object({
  /** The trace's step number. */
  step: z.number().int(),
  promptTokens: z.number().int().nonnegative(),
  cacheRead: z.number().int().nonnegative(),
  cacheWrite: z.number().int().nonnegative(),
  /** promptTokens − cacheRead, as the totals count it. */
  uncached: z.number().int().nonnegative(),
  prefixReuse: z.number().min(0).max(1),
  /** Needed-reference recall on content; null when the step's action needs no content. */
  recall: z.number().min(0).max(1).nullable(),
});

const ComparisonResultDtoSchema = z.object({
  traceId: z.string(),
  strategy: ComparisonStrategySchema,
  /** The budget replayed; null for the baseline, which does not truncate. */
  budget: z.number().int().positive().nullable(),
  totals: ComparisonTotalsDtoSchema,
  /** One entry per replayed step, in order. */
  series: z.array(ComparisonStepDtoSchema),
});

const ModelledBaselineDtoSchema = z
  .object({
    /** Whose cache model priced the baseline: the recording's provider when known, else the comparison's. */
    provider: z.enum(['anthropic', 'openai']),
    /** Steps with a recorded usage that the baseline also priced. */
    matched: z.number().int().nonnegative(),
    promptTokens: z.number().int().nonnegative(),
    hitRate: z.number().min(0).max(1),
    /** (modelled − recorded) / recorded over the matched steps; null when nothing was recorded there. */
    promptError: z.number().nullable(),
    cacheReadError: z.number().nullable(),
  })
  .nullable();

/**
 * What the recording agents' provider billed for one trace of a comparison (every agent's calls
 * with a recorded usage), how the cache model prices each baseline over the same steps (null
 * unless that baseline was among the strategies): the agent as recorded and the no-limit full
 * history, and how the fixed prefix every row sends was obtained.
 */
const RecordedTraceDtoSchema = z.object({
  traceId: z.string(),
  /** The recorded model, when the trace names one. */
  model: z.string().nullable(),
  calls: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  /** Recorded input and cache writes: prompt tokens not read from a cache. */
  uncachedTokens: z.number().int().nonnegative(),
  /** Recorded cache writes. */
  cacheWriteTokens: z.number().int().nonnegative(),
  /**
   * Cache reads but no cache writes from a model whose provider bills writes (Claude) or an unnamed
   * one: the recorder likely left the writes out, so the hit rate and uncached figure are bounds.
   */
  writesMissing: z.boolean(),
  hitRate: z.number().min(0).max(1),
  /** The recorded usage (output included) at the recorded model's list price, in US dollars; null without one. */
  costUsd: z.number().nonnegative().nullable(),
  /** Reads of a file (and range) the same agent had already read and seen, with no edit of it between: a sign of lost context. */
  rereads: z.number().int().nonnegative(),
  /** The agent as it ran, its compactions followed (`as_recorded`). */
  asRecorded: ModelledBaselineDtoSchema,
  /** The no-limit full history (`full_history_baseline`). */
  fullHistory: ModelledBaselineDtoSchema,
  /** How the fixed prefix was obtained (`estimated`: a calibrated stand-in) and the token scale every row is priced with. */
  prefix: z.object({ note: z.string(), estimated: z.boolean(), tokenScale: z.number().positive() }).nullable(),
});
export type RecordedTraceDto = z.infer<typeof RecordedTraceDtoSchema>;

export const ComparisonDtoSchema = z.object({
  comparisonId: z.string(),
  status: ComparisonStatusSchema,
  traceIds: z.array(z.string()),
  strategies: z.array(ComparisonStrategySchema),
  /** The first of `budgets` (kept for callers that read one). */
  budget: z.number().int().positive(),
  /** Every budget replayed, in the order asked. */
  budgets: z.array(z.number().int().positive()),
  /** The traces named, with their names as they were when it started; `removed` once a trace has been removed from the catalog (its results stay). */
  traces: z.array(z.object({ traceId: z.string(), name: z.string(), removed: z.boolean() })),
  provider: z.enum(['anthropic', 'openai']),
  /** The TTL and model asked for (null: each trace's recorded one). */
  ttl: CacheTtlSchema.nullable(),
  model: z.string().nullable(),
  /** The context window asked for (null: each trace's recorded or documented one; each result says which). */
  window: z.number().int().positive().nullable(),
  /** Milliseconds since the epoch; `finishedAt` is null while running. */
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  /** Replays (trace × strategy × budget) finished, with or without an error, and in all. */
  progress: z.object({ done: z.number().int().nonnegative(), total: z.number().int().positive() }),
  /** The replays that finished, in (trace, strategy) order. */
  results: z.array(ComparisonResultDtoSchema),
  /** The replays that failed, with why (the others still ran). */
  errors: z.array(z.object({ traceId: z.string(), strategy: ComparisonStrategySchema, budget: z.number().int().positive().nullable().optional(), error: z.string() })),
  /** Per trace that records its provider's usage, what the real agent was billed; empty while running. */
  recorded: z.array(RecordedTraceDtoSchema),
  /** What the dollars, cache TTLs, context windows and agent roles rest on (units, list prices with sources and dates, unpriced models, TTL and window per trace, roles, why role_optimized equals variable where it does); empty while running. */
  notes: z.array(z.string()),
});
export type ComparisonDto = z.infer<typeof ComparisonDtoSchema>;

/** A comparison in the history (`listComparisons`): what it ran and how it ended, without its results. */
export const ComparisonSummaryDtoSchema = ComparisonDtoSchema.pick({ comparisonId: true, status: true, traces: true, strategies: true, budgets: true, provider: true, model: true, startedAt: true, finishedAt: true, progress: true });
export type ComparisonSummaryDto = z.infer<typeof ComparisonSummaryDtoSchema>;
export type ComparisonResultDto = z.infer<typeof ComparisonResultDtoSchema>;
