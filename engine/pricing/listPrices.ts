import { VERSION_END as END } from '../providers/cacheModel/rules';

/**
 * Per-model list prices in US dollars per million tokens: the one price table every cost figure
 * comes from (`[price-table]`). Each row says where its figures were read and when; a model no row
 * names has no list price, and outputs say so instead of inventing one. Prices change: re-read the
 * sources and update the rows and their dates together.
 *
 * How each provider bills a prompt's parts (read from the same sources):
 * - Anthropic: uncached input at the base price; cache reads ("cache hits and refreshes") at 0.1x
 *   base for most models; cache writes at 1.25x base with a 5-minute lifetime and 2x base with a
 *   1-hour lifetime (the page's "prompt caching pricing multipliers"). The rows list the page's
 *   dollar figures, which is how exceptions show: Claude Opus 5.5 reads at $0.20, 0.05x its base.
 * - OpenAI: cached input at the model's cached-input price; no charge for writing the cache, so a
 *   token the cache model counts as written is billed as ordinary input.
 * - DeepSeek: input is billed at the cache-hit or the cache-miss price (its disk cache, on by
 *   default); no write charge, so written tokens are cache misses.
 * - Google Gemini: implicit caching bills a hit at the model's context-caching price; no write
 *   charge. The storage charge per token-hour of explicit caches is out of scope (a replay creates
 *   no explicit cache).
 * Batch, priority and flex tiers, long-context surcharges above a row's `standardRateUpTo` and
 * regional endpoints are not modelled; a row says where its standard rate stops.
 */

/** USD per million tokens of each billed part of a call. */
export interface TokenRates {
  /** Uncached input (DeepSeek: the cache-miss price). */
  input: number;
  /** Tokens read from the provider's cache (cache hit, cached input). */
  cacheRead: number;
  /** Tokens written to the cache with a 5-minute and a 1-hour lifetime (the input price where writing is not charged). */
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
}

export type PriceProvider = 'anthropic' | 'openai' | 'deepseek' | 'google';

export interface ListPrice {
  /** The models as the source names them. */
  models: string;
  /** Matched against the model name lower-cased with `.` and `_` as `-` (`claude-opus-4.6` → `claude-opus-4-6`). */
  pattern: RegExp;
  provider: PriceProvider;
  perMTok: TokenRates;
  /** Where the figures were read. */
  source: string;
  /** When they were read (YYYY-MM-DD). */
  read: string;
  /** Prompts above this many tokens pay a higher documented rate that is not modelled (they are priced at this row's). */
  standardRateUpTo?: number;
  /** What else the source says that bears on the figures. */
  note?: string;
}

/** The day the rows below were read. */
export const PRICES_READ = '2026-12-01';

const ANTHROPIC = 'https://platform.claude.com/docs/en/about-claude/pricing';
const OPENAI = 'https://developers.openai.com/api/docs/pricing';
const DEEPSEEK = 'https://api-docs.deepseek.com/quick_start/pricing-details-usd';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing';

const rx = (source: string): RegExp => new RegExp(source);
const anthropic = (input: number, cacheRead: number, cacheWrite5m: number, cacheWrite1h: number, output: number): TokenRates => ({ input, cacheRead, cacheWrite5m, cacheWrite1h, output });
/** A provider that does not charge for writing its cache: written tokens cost ordinary input. */
const noWriteCharge = (input: number, cacheRead: number, output: number): TokenRates => ({ input, cacheRead, cacheWrite5m: input, cacheWrite1h: input, output });

const OPENAI_NOTE = 'read from the pricing page as quoted by third-party copies of it (the stored copy of the official gpt-5-codex model page gives the gpt-5 figures itself)';

/** The table; the first row whose pattern matches a model name prices it. */
export const LIST_PRICES: readonly ListPrice[] = [
  // Anthropic: "Model pricing" table of the pricing page; Opus 5.5 and Sonnet 5 from their model pages.
  { models: 'Claude Opus 5.5', pattern: rx(`opus-5-5${END}`), provider: 'anthropic', perMTok: anthropic(4, 0.2, 5, 8, 20), source: 'https://platform.claude.com/docs/en/models/opus-5-5/overview', read: PRICES_READ, note: 'cache reads at 0.05x the base input price, not 0.1x' },
  { models: 'Claude Opus 5', pattern: rx(`opus-5${END}`), provider: 'anthropic', perMTok: anthropic(5, 0.5, 6.25, 10, 25), source: ANTHROPIC, read: PRICES_READ },
  { models: 'Claude Opus 4.5, 4.6, 4.7, 4.8', pattern: rx(`opus-4-[5-8]${END}`), provider: 'anthropic', perMTok: anthropic(5, 0.5, 6.25, 10, 25), source: ANTHROPIC, read: PRICES_READ },
  { models: 'Claude Opus 4, 4.1', pattern: rx(`opus-4(?:-1)?${END}`), provider: 'anthropic', perMTok: anthropic(15, 1.5, 18.75, 30, 75), source: ANTHROPIC, read: PRICES_READ },
  { models: 'Claude Sonnet 5', pattern: rx(`sonnet-5${END}`), provider: 'anthropic', perMTok: anthropic(2, 0.2, 2.5, 4, 10), source: 'https://platform.claude.com/docs/en/models/sonnet-5/overview', read: PRICES_READ },
  { models: 'Claude Sonnet 4', pattern: rx(`sonnet-4${END}`), provider: 'anthropic', perMTok: anthropic(3, 0.3, 3.75, 6, 15), source: ANTHROPIC, read: PRICES_READ, standardRateUpTo: 200_000, note: 'prompts over 200K input tokens (1M context) pay $6 input and $22.50 output' },
  { models: 'Claude Sonnet 4.5, 4.6', pattern: rx(`sonnet-4-[56]${END}`), provider: 'anthropic', perMTok: anthropic(3, 0.3, 3.75, 6, 15), source: ANTHROPIC, read: PRICES_READ },
  { models: 'Claude Haiku 4.5', pattern: rx(`haiku-4-5${END}`), provider: 'anthropic', perMTok: anthropic(1, 0.1, 1.25, 2, 5), source: ANTHROPIC, read: PRICES_READ },
  { models: 'Claude Haiku 3.5', pattern: rx(`claude-3-5-haiku(?![a-z0-9])|haiku-3-5${END}`), provider: 'anthropic', perMTok: anthropic(0.8, 0.08, 1, 1.6, 4), source: ANTHROPIC, read: PRICES_READ },
  // OpenAI: standard processing tier.
  { models: 'GPT-5.5', pattern: rx(`gpt-5-5${END}`), provider: 'openai', perMTok: noWriteCharge(5, 0.5, 30), source: OPENAI, read: PRICES_READ, note: OPENAI_NOTE },
  { models: 'GPT-5.4', pattern: rx(`gpt-5-4${END}`), provider: 'openai', perMTok: noWriteCharge(2.5, 0.25, 15), source: OPENAI, read: PRICES_READ, standardRateUpTo: 272_000, note: `prompts over 272K tokens pay 2x input and 1.5x output; ${OPENAI_NOTE}` },
  { models: 'GPT-5.4 mini', pattern: rx(`gpt-5-4-mini${END}`), provider: 'openai', perMTok: noWriteCharge(0.75, 0.075, 4.5), source: OPENAI, read: PRICES_READ, note: OPENAI_NOTE },
  { models: 'GPT-5.2, GPT-5.2-Codex, GPT-5.3-Codex', pattern: rx(`gpt-5-2(?:-codex)?${END}|gpt-5-3-codex${END}`), provider: 'openai', perMTok: noWriteCharge(1.75, 0.175, 14), source: OPENAI, read: PRICES_READ, note: OPENAI_NOTE },
  { models: 'GPT-5, GPT-5-Codex, GPT-5.1, GPT-5.1-Codex, GPT-5.1-Codex-Max', pattern: rx(`gpt-5(?:-codex)?${END}|gpt-5-1(?:-codex(?:-max)?)?${END}`), provider: 'openai', perMTok: noWriteCharge(1.25, 0.125, 10), source: 'https://developers.openai.com/api/docs/models/gpt-5-codex', read: PRICES_READ, note: OPENAI_NOTE },
  { models: 'GPT-5 mini', pattern: rx(`gpt-5-mini${END}`), provider: 'openai', perMTok: noWriteCharge(0.25, 0.025, 2), source: OPENAI, read: PRICES_READ, note: OPENAI_NOTE },
  // DeepSeek: "1M tokens input price (cache hit)", "(cache miss)" and output.
  { models: 'deepseek-chat', pattern: rx(`^(?:deepseek/)?deepseek-chat${END}`), provider: 'deepseek', perMTok: noWriteCharge(0.27, 0.07, 1.1), source: DEEPSEEK, read: PRICES_READ, note: 'the stored copy of the page lists the DeepSeek-V3 prices; DeepSeek has repriced since (recheck before relying on it)' },
  { models: 'deepseek-reasoner', pattern: rx(`^(?:deepseek/)?deepseek-reasoner${END}`), provider: 'deepseek', perMTok: noWriteCharge(0.55, 0.14, 2.19), source: DEEPSEEK, read: PRICES_READ, note: 'the stored copy of the page lists the DeepSeek-R1 prices; DeepSeek has repriced since (recheck before relying on it)' },
  // Google Gemini Developer API, paid tier, text input.
  { models: 'Gemini 2.5 Pro', pattern: rx(`gemini-2-5-pro${END}`), provider: 'google', perMTok: noWriteCharge(1.25, 0.125, 10), source: GEMINI, read: PRICES_READ, standardRateUpTo: 200_000, note: 'prompts over 200K tokens pay $2.50 input, $0.25 cached and $15 output; figures as quoted from the page on discuss.ai.google.dev (t/107349)' },
  { models: 'Gemini 3 Flash Preview', pattern: rx(`gemini-3-flash-preview${END}`), provider: 'google', perMTok: noWriteCharge(0.5, 0.05, 3), source: GEMINI, read: PRICES_READ, note: 'text, image and video input' },
];
// Not priced, because no source read gave every rate: Gemini 2.5 Flash, Gemini 3 / 3.1 Pro (no
// cached-input price found), Claude Sonnet 5.5 and Haiku 5.5 (re-priced or tiered by prompt length
// after the copies read), GPT-5.6 and later (explicit breakpoints with a write charge).
