import type { CacheTtl, MinCacheableTokensTable } from './types';

/**
 * The providers' documented prompt-cache rules, as numbers. Each constant says where it comes
 * from; the model in `cacheModel.ts` only combines them.
 *
 * Sources (read for this module; facts restated, not copied):
 * - Anthropic, "Prompt caching": https://platform.claude.com/docs/en/build-with-claude/prompt-caching
 *   (formerly docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
 * - OpenAI, "Prompt caching": https://platform.openai.com/docs/guides/prompt-caching
 *   (also developers.openai.com/api/docs/guides/prompt-caching), the automatic caching of models
 *   before GPT-5.6 (later families document explicit breakpoints and a write charge; not modelled).
 */

const MINUTE_MS = 60_000;

/**
 * Anthropic cache lifetimes. "By default, the cache has a 5-minute lifetime. The cache is refreshed
 * for no additional cost each time the cached content is used"; a 1-hour lifetime is requested with
 * `cache_control: { type: "ephemeral", ttl: "1h" }` (Anthropic, "Prompt caching", "1-hour cache duration").
 */
export const ANTHROPIC_TTL_MS: Readonly<Record<CacheTtl, number>> = { '5m': 5 * MINUTE_MS, '1h': 60 * MINUTE_MS };

/** At most 4 `cache_control` breakpoints per request (Anthropic, "When to use multiple breakpoints"). */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/**
 * Lookback: at a breakpoint "the system automatically checks for cache hits at all previous content
 * block boundaries (up to approximately 20 blocks before your explicit breakpoint)" and uses the
 * longest matching prefix; content further back is not checked unless another breakpoint covers it
 * (Anthropic, "How automatic prefix checking works"). Modelled as: the breakpoint's own boundary
 * and the 20 boundaries before it.
 */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/** Normalises a model name for the tables: lower case, `.` and `_` as `-` (`claude-opus-4.5` → `claude-opus-4-5`). */
export function normaliseModelName(model: string): string {
  return model.toLowerCase().replace(/[._]/g, '-');
}

/**
 * What may follow a version number in a normalised model name: the end, a non-version character
 * (`@`, `:`, `/`, `[`…), a date stamp, a Bedrock `-v1` suffix or `-latest`; so `opus-4` does not
 * match `opus-4-7`, but does match `opus-4-20250514`. A regular-expression source (a lookahead).
 */
export const VERSION_END = String.raw`(?=$|[^0-9-]|-\d{8}|-v\d|-latest)`;
const END = VERSION_END;
const rx = (source: string): RegExp => new RegExp(source);

/**
 * Anthropic minimum cacheable prompt length per model family: a shorter prefix "cannot be cached,
 * even if marked with `cache_control`" and is processed without caching (no write, no read).
 *
 * Figures as the Anthropic documentation lists them (the current list as quoted in
 * anthropics/anthropic-sdk-python#1194, and the earlier list on the same page):
 * - 4096 tokens: Claude Opus 4.6, Opus 4.5, Haiku 4.5;
 * - 2048 tokens: Claude Haiku 3.5, Haiku 3;
 * - 1024 tokens: Claude Sonnet 4.6, Sonnet 4.5, Opus 4.1, Opus 4, Sonnet 4, Sonnet 3.7, Sonnet 3.5, Opus 3.
 * Sonnet 4.6 is listed at 1024 there; a gateway's copy of the table (docs.orq.ai) and the report in
 * that issue say 2048 in practice. The documented 1024 is used. Models no rule names (newer
 * families, for which only conflicting third-party figures were found) get the default, 1024, the
 * floor of most documented families; pass a table to `createCacheModel` to change any of this.
 */
export const ANTHROPIC_MIN_CACHEABLE_TOKENS: MinCacheableTokensTable = {
  rules: [
    { pattern: rx(`opus-4-[56]${END}`), minTokens: 4096, models: 'Claude Opus 4.5, Opus 4.6' },
    { pattern: rx(`haiku-4-5${END}`), minTokens: 4096, models: 'Claude Haiku 4.5' },
    { pattern: rx(`claude-3(?:-5)?-haiku(?![a-z0-9])|haiku-3(?:-5)?${END}`), minTokens: 2048, models: 'Claude Haiku 3, Haiku 3.5' },
    { pattern: rx(`claude-3-[57]-sonnet(?![a-z0-9])|claude-3-opus(?![a-z0-9])|sonnet-3-[57]${END}`), minTokens: 1024, models: 'Claude Sonnet 3.5, Sonnet 3.7, Opus 3' },
    { pattern: rx(`sonnet-4(?:-[56])?${END}|opus-4(?:-1)?${END}`), minTokens: 1024, models: 'Claude Sonnet 4, 4.5, 4.6, Opus 4, 4.1' },
  ],
  defaultMinTokens: 1024,
};

/** The minimum cacheable length for `model` in `table`: the first matching rule, else the default. */
export function minCacheableTokensFor(model: string, table: MinCacheableTokensTable = ANTHROPIC_MIN_CACHEABLE_TOKENS): number {
  const name = normaliseModelName(model);
  for (const rule of table.rules) if (rule.pattern.test(name)) return rule.minTokens;
  return table.defaultMinTokens;
}

/**
 * OpenAI: "Caching is available for prompts containing 1024 tokens or more, with cache hits
 * occurring in increments of 128 tokens", so cached tokens are 0 or one of 1024, 1152, 1280 …
 * (OpenAI, "Prompt caching", "Requirements").
 */
export const OPENAI_MIN_CACHEABLE_TOKENS = 1024;
export const OPENAI_CACHE_INCREMENT_TOKENS = 128;

/**
 * OpenAI: "Cached prefixes generally remain active for 5 to 10 minutes of inactivity", up to an
 * hour off-peak (the in-memory retention policy). The low end is the default, so the model never
 * promises hits the provider may not give; `ttlMs` changes it (e.g. for extended retention).
 */
export const OPENAI_DEFAULT_TTL_MS = 5 * MINUTE_MS;
