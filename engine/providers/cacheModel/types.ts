import type { Usage } from '../Provider';

/**
 * Types of the provider cache model: what a prompt looks like to a provider's prompt cache, one
 * call, and the usage the model says the provider would report for it.
 */

/** The two documented Anthropic cache lifetimes (`cache_control.ttl`); `'5m'` is the default. */
export type CacheTtl = '5m' | '1h';

export type CacheProvider = 'anthropic' | 'openai';

/**
 * One piece of a prompt in the order the model sees it (Anthropic: one content block, in the
 * order tools → system → messages). Two prompts share a prefix up to their first differing `id`.
 */
export interface PromptSegment {
  /** Identity of the segment's exact content (callers pass a content hash): equal ids mean equal content. */
  readonly id: string;
  /** Tokens of the segment as the real tokenizer counts them: a non-negative integer. */
  readonly tokens: number;
  /**
   * Anthropic: a `cache_control` breakpoint on this block with its TTL (at most 4 per call, and a
   * `'1h'` breakpoint never after a `'5m'` one). OpenAI caches automatically and ignores it.
   */
  readonly cacheControl?: CacheTtl;
}

/** One model call as the cache sees it. */
export interface ModelCall {
  /** When the call was sent, in ms since the epoch (any consistent clock works). Never earlier than the previous call. */
  readonly at: number;
  /** The model name as sent to the provider; caches are never shared across models. */
  readonly model: string;
  /** OpenAI `prompt_cache_key`: calls with different keys never share cache entries. Anthropic has no such parameter and ignores it. */
  readonly cacheKey?: string;
  /** The prompt, in order; at least one segment. */
  readonly segments: readonly PromptSegment[];
  /** Output tokens, passed through to `output` (0 when absent). */
  readonly outputTokens?: number;
}

/**
 * The usage the provider would report for a call, normalised like `Usage`: `input` is the
 * uncached input, and `input + cacheRead + cacheWrite === promptTokens` always.
 */
export interface ModeledUsage extends Usage {
  /** Total prompt tokens (the sum of the segments' tokens). */
  promptTokens: number;
  /** How many leading segments were served entirely from the cache (0 on a miss). */
  cachedPrefixSegments: number;
  /** `cacheWrite` split by the TTL it was written with (Anthropic's `cache_creation.ephemeral_5m/1h_input_tokens`); both 0 for OpenAI. */
  cacheWriteByTtl: Record<CacheTtl, number>;
  /** The minimum cacheable prompt length that applied to this call's model. */
  minCacheableTokens: number;
}

/** One row of a minimum-cacheable-length table: the first rule whose pattern matches the normalised model name wins. */
interface MinCacheableTokensRule {
  /** Matched against the model name lower-cased with `.` and `_` turned into `-` (e.g. `claude-opus-4-5-20251101`). No `g`/`y` flag. */
  readonly pattern: RegExp;
  readonly minTokens: number;
  /** The model family the rule stands for, as the documentation names it. */
  readonly models: string;
}

export interface MinCacheableTokensTable {
  readonly rules: readonly MinCacheableTokensRule[];
  /** For a model no rule matches. */
  readonly defaultMinTokens: number;
}

export interface AnthropicCacheModelOptions {
  provider: 'anthropic';
  /** Lifetime of an entry per TTL in ms (defaults: 5 min and 1 h). Each use refreshes it. */
  ttlMs?: Partial<Record<CacheTtl, number>>;
  /** Block boundaries checked before each breakpoint for an earlier cached prefix (default 20). */
  lookbackBlocks?: number;
  /** Minimum cacheable prompt length per model (default `ANTHROPIC_MIN_CACHEABLE_TOKENS`). */
  minCacheableTokens?: MinCacheableTokensTable;
  /** How often (in the calls' clock) expired entries are dropped; default the 5-minute TTL. Never changes results. */
  sweepIntervalMs?: number;
}

export interface OpenAICacheModelOptions {
  provider: 'openai';
  /** How long a prefix stays cached without use, in ms (default 5 min, the low end of the documented 5–10 minutes). */
  ttlMs?: number;
  /** Shortest prompt that is cached, and the smallest cache hit (default 1024). */
  minCacheableTokens?: number;
  /** Cache hits grow in steps of this many tokens above the minimum (default 128). */
  incrementTokens?: number;
  /** How often (in the calls' clock) expired entries are dropped; default `ttlMs`. Never changes results. */
  sweepIntervalMs?: number;
}

export type CacheModelOptions = AnthropicCacheModelOptions | OpenAICacheModelOptions;

/** Memory held by a cache model, to check that it stays bounded. */
export interface CacheModelStats {
  /** Cache namespaces held (Anthropic: models; OpenAI: model × cacheKey). */
  namespaces: number;
  /** Prefix nodes held, live or expired but not yet swept. */
  retainedNodes: number;
  /** Cache entries still live at the last observed call's time (OpenAI: cached prefixes ending at a segment boundary). */
  liveEntries: number;
}

/** A stateful model of one provider's prompt cache. */
export interface CacheModel {
  readonly provider: CacheProvider;
  /**
   * Processes one call (in time order) and returns the usage the provider would report. A call
   * that is invalid or earlier than the previous one is refused with a `TypeError` or `RangeError`
   * and changes nothing.
   */
  observe(call: ModelCall): ModeledUsage;
  stats(): CacheModelStats;
}

/** Sums over a run; `hitRate` = cacheRead / (input + cacheRead + cacheWrite), 0 when that is 0. */
interface CacheRunTotals extends Usage {
  hitRate: number;
}

export interface CacheRunResult {
  calls: ModeledUsage[];
  totals: CacheRunTotals;
}
