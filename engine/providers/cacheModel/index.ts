/**
 * Provider cache model: the input / cache-read / cache-write tokens a provider would report for a
 * sequence of prompts, from the providers' documented prompt-caching rules. Used to price runs
 * when no real provider runs (the demo, counterfactual replays of recorded traces) and to show
 * modelled figures next to real ones. Pure TypeScript: no I/O, deterministic. See `rules.ts` for
 * every documented number and where it comes from, `cacheModel.ts` for how they combine.
 */
export { createCacheModel, modelRun } from './cacheModel';
export {
  ANTHROPIC_MIN_CACHEABLE_TOKENS,
  minCacheableTokensFor,
} from './rules';
export type {
  CacheModel,
  CacheModelOptions,
  CacheProvider,
  CacheTtl,
  ModelCall,
  ModeledUsage,
  OpenAICacheModelOptions,
  PromptSegment,
} from './types';
