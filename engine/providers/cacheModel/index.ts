/**
 * Provider cache model: the input / cache-read / cache-write tokens a provider would report for a
 * sequence of prompts, from the providers' documented prompt-caching rules. Used to price runs
 * when no real provider runs (the demo, counterfactual replays of recorded traces) and to show
 * modelled figures next to real ones. Pure TypeScript: no I/O, deterministic. See `rules.ts` for
 * every documented number and where it comes from, `cacheModel.ts` for how they combine.
 */
export { createCacheModel, modelRun } from './cacheModel';
export {
  ANTHROPIC_LOOKBACK_BLOCKS,
  ANTHROPIC_MAX_BREAKPOINTS,
  ANTHROPIC_MIN_CACHEABLE_TOKENS,
  ANTHROPIC_TTL_MS,
  OPENAI_CACHE_INCREMENT_TOKENS,
  OPENAI_DEFAULT_TTL_MS,
  OPENAI_MIN_CACHEABLE_TOKENS,
  minCacheableTokensFor,
  normaliseModelName,
} from './rules';
export type {
  AnthropicCacheModelOptions,
  CacheModel,
  CacheModelOptions,
  CacheModelStats,
  CacheProvider,
  CacheRunResult,
  CacheRunTotals,
  CacheTtl,
  MinCacheableTokensRule,
  MinCacheableTokensTable,
  ModelCall,
  ModeledUsage,
  OpenAICacheModelOptions,
  PromptSegment,
} from './types';
