import { normaliseModelName, VERSION_END as END } from '../providers/cacheModel/rules';
import type { PriceProvider } from '../pricing/listPrices';

/**
 * Per-model context windows: the one table a replay's window comes from when the recording does
 * not state one (`[context-window-table]`). Each row says where its figure was read and when; a
 * model no row names has no known window, and outputs say so instead of guessing one. Windows
 * change with model releases: re-read the sources and update the rows and their dates together.
 *
 * What a replay checks is the largest prompt the provider accepts (`prompt`), read from each
 * provider's documentation as follows:
 * - Anthropic: the prompt itself is held against the window ("prompt is too long: N tokens >
 *   200000 maximum"), so `prompt` is the window. Claude Sonnet 4 and 4.5 have a 200K window and a
 *   1M one behind a beta header (`context-1m-2025-08-07`, usage tier 4 and up): 200K is assumed,
 *   since a request only gets 1M by asking for it, unless the recording's own prompts were larger
 *   than 200K, which only the 1M window allows (`extended`). Opus 4.6 and later, Sonnet 4.6 and
 *   later and Haiku 5.5 document 1M as their window, with no beta.
 * - OpenAI: the window holds the prompt and the output together, and the API keeps the model's
 *   whole maximum output free, so `prompt` is the window less the maximum output (400,000 − 128,000
 *   = 272,000, the input limit Codex itself sets for these models, github.com/openai/codex/issues/9429;
 *   1,050,000 − 128,000 = 922,000).
 * - DeepSeek: the pricing page's "context length", the same stored copy the price table read.
 * - Google Gemini: the documented maximum input tokens.
 * Models a recording names but no row covers (GPT-5.1, 5.2, 5.5 and the minis, Gemini 3, Claude
 * Opus 4.7 and 4.8) were left out because no source read gave their window; they have none.
 */

export interface ContextWindow {
  /** The models as the source names them. */
  models: string;
  /** Matched against the model name lower-cased with `.` and `_` as `-` (`claude-opus-4.6` → `claude-opus-4-6`). */
  pattern: RegExp;
  provider: PriceProvider;
  /** The documented context window, in the provider's tokens. */
  window: number;
  /** Of it, the largest prompt the provider accepts (see the module comment). */
  prompt: number;
  /** A larger window a beta or usage tier gives: assumed only when the recording's prompts exceed `prompt`. */
  extended?: { prompt: number; how: string; source: string };
  /** Where the figure was read. */
  source: string;
  /** When it was read (YYYY-MM-DD). */
  read: string;
  note?: string;
}

/** The day the rows below were read. */
export const WINDOWS_READ = '2026-12-01';

const CLAUDE_MODELS = 'https://platform.claude.com/docs/en/models';
const CLAUDE_1M_BETA = {
  prompt: 1_000_000,
  how: 'the 1M-token beta (header context-1m-2025-08-07, usage tier 4)',
  source: 'https://github.com/anthropics/claude-code/issues/8381 (the header); https://agentmastered.com/blog/1m-context-ga (tier 4)',
};
const OPENAI_MODELS = 'https://developers.openai.com/api/docs/models';
const rx = (source: string): RegExp => new RegExp(source);
/** An Anthropic model page (`page`), or another source given as a URL. */
const claude = (models: string, pattern: string, window: number, page: string, extra: Partial<ContextWindow> = {}): ContextWindow => ({ models, pattern: rx(pattern), provider: 'anthropic', window, prompt: window, source: page.startsWith('https://') ? page : `${CLAUDE_MODELS}/${page}/overview`, read: WINDOWS_READ, ...extra });
/** Anthropic's help article on the API's context window (its Japanese edition was read). */
const CLAUDE_HELP = 'https://support.claude.com/ja/articles/8606395';
const openai = (models: string, pattern: string, window: number, maxOutput: number, source: string, note?: string): ContextWindow => ({ models, pattern: rx(pattern), provider: 'openai', window, prompt: window - maxOutput, source, read: WINDOWS_READ, note: `${window.toLocaleString('en-US')} context window with ${maxOutput.toLocaleString('en-US')} max output tokens${note ? `; ${note}` : ''}` });

/** The table; the first row whose pattern matches a model name gives its window. */
export const CONTEXT_WINDOWS: readonly ContextWindow[] = [
  // Anthropic: each model's overview page ("Context window: 1M tokens · Max output: …").
  claude('Claude Opus 5.5', `opus-5-5${END}`, 1_000_000, 'opus-5-5'),
  claude('Claude Opus 5', `opus-5${END}`, 1_000_000, 'opus-5'),
  claude('Claude Sonnet 5.5', `sonnet-5-5${END}`, 1_000_000, 'haiku-5-5', { note: 'read from the lineup table of the Claude Haiku 5.5 page' }),
  claude('Claude Sonnet 5', `sonnet-5${END}`, 1_000_000, 'sonnet-5'),
  claude('Claude Haiku 5.5', `haiku-5-5${END}`, 1_000_000, 'haiku-5-5'),
  claude('Claude Opus 4.6', `opus-4-6${END}`, 1_000_000, 'opus-4-6'),
  claude('Claude Sonnet 4.6', `sonnet-4-6${END}`, 1_000_000, 'sonnet-4-6'),
  claude('Claude Opus 4.5', `opus-4-5${END}`, 200_000, 'opus-4-5'),
  claude('Claude Haiku 4.5', `haiku-4-5${END}`, 200_000, 'haiku-4-5'),
  claude('Claude Sonnet 4.5', `sonnet-4-5${END}`, 200_000, 'sonnet-4-5', { extended: CLAUDE_1M_BETA }),
  claude('Claude Sonnet 4', `sonnet-4${END}`, 200_000, CLAUDE_HELP, { extended: CLAUDE_1M_BETA, note: 'the help article: 1M tokens with Sonnet 4 (the beta), 200K for the other models' }),
  claude('Claude Opus 4, 4.1', `opus-4(?:-1)?${END}`, 200_000, CLAUDE_HELP, { note: 'the help article gives 200K for every model but Sonnet 4' }),
  // OpenAI: the model pages ("N context window", "M max output tokens").
  openai('GPT-5.4', `gpt-5-4${END}`, 1_050_000, 128_000, `${OPENAI_MODELS}/gpt-5.4`, 'prompts over 272K tokens are billed at a higher rate (listPrices.ts)'),
  openai('GPT-5.3-Codex', `gpt-5-3-codex${END}`, 400_000, 128_000, 'https://vercel.com/ai-gateway/models/gpt-5.3-codex', "read from Vercel's AI Gateway page (OpenAI as the provider); no OpenAI page for it was found"),
  openai('GPT-5, GPT-5-Codex', `gpt-5(?:-codex)?${END}`, 400_000, 128_000, `${OPENAI_MODELS}/gpt-5-codex`, 'the page is GPT-5-Codex\'s; GPT-5 itself: 400K on https://vercel.com/ai-gateway/models/gpt-5/faq'),
  // DeepSeek: "CONTEXT LENGTH" of the pricing table.
  { models: 'deepseek-chat, deepseek-reasoner', pattern: rx(`^(?:deepseek/)?deepseek-(?:chat|reasoner)${END}`), provider: 'deepseek', window: 64_000, prompt: 64_000, source: 'https://api-docs.deepseek.com/quick_start/pricing-details-usd', read: WINDOWS_READ, note: 'the page says 64K (read as 64,000); the stored copy is of the DeepSeek-V3 and R1 era, and later versions document 128K' },
  // Google: maximum input tokens of the model page.
  { models: 'Gemini 2.5 Pro', pattern: rx(`gemini-2-5-pro${END}`), provider: 'google', window: 1_048_576, prompt: 1_048_576, source: 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/2-5-pro', read: WINDOWS_READ, note: 'maximum input tokens 1,048,576, output 65,535' },
];

/** The row of `CONTEXT_WINDOWS` that gives `model`'s window (the first whose pattern matches), if any. */
export function contextWindowOf(model: string | undefined, table: readonly ContextWindow[] = CONTEXT_WINDOWS): ContextWindow | undefined {
  if (!model) return undefined;
  const name = normaliseModelName(model);
  return table.find((w) => w.pattern.test(name));
}
