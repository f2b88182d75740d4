import { tokens } from '../../components/format';

/**
 * The token limits the control room shows, reconciled in one place. Three different figures are
 * all called a "budget" or a "limit" somewhere:
 * - the agent's **engine budget** (`AgentDto.budget`): how much Strata packs into the agent's
 *   context per generation; the tree's context % and the agent header are against it;
 * - the **provider window**: the most a prompt may hold at the provider; it appears only in the
 *   provider's refusal ("prompt is too long: 203928 tokens > 200000 maximum") that starts a refresh;
 * - a recorded session's **real window** (`LiveSessionDto.budget` of an attached session): the
 *   window the real agent ran against, which its own figures are measured on.
 * Every view that shows one of them names it with `budgetLabel`, so two of them never sit side by side unlabelled.
 */
export type BudgetKind = 'engine' | 'provider' | 'session';

const LABEL: Record<BudgetKind, string> = { engine: 'engine budget', provider: 'provider window', session: "session's real window" };

/** The short name of a budget figure ("engine budget", "provider window", …). */
export const budgetLabel = (kind: BudgetKind): string => LABEL[kind];

/** A figure with its name, e.g. "engine budget 64,000". */
export const budgetText = (kind: BudgetKind, value: number): string => `${LABEL[kind]} ${tokens(value)}`;

/** A provider's context-limit refusal, read: the prompt's tokens and the provider window it exceeded. */
export interface ProviderLimit {
  prompt: number;
  window: number;
}

/**
 * The figures of a provider's context-limit message (Anthropic's "prompt is too long: N tokens > M
 * maximum", OpenAI's "maximum context length is M tokens … resulted in N tokens"), or null.
 */
export function providerLimitOf(text: string): ProviderLimit | null {
  const num = (s: string | undefined) => Number((s ?? '').replace(/[,_\s]/g, ''));
  const anthropic = /(\d[\d,_]*)\s*tokens?\s*>\s*(\d[\d,_]*)\s*(?:tokens?\s*)?maximum/i.exec(text);
  if (anthropic) return { prompt: num(anthropic[1]), window: num(anthropic[2]) };
  const openai = /maximum context length is (\d[\d,_]*) tokens.*?(\d[\d,_]*) tokens/i.exec(text);
  if (openai) return { prompt: num(openai[2]), window: num(openai[1]) };
  return null;
}

/**
 * The note that reconciles a context-limit message with the agent's own budget: which figure is the
 * provider's window and which the engine budget, e.g. "204k tokens > provider window 200k; engine
 * budget 64k (the tree's context %)". Null when the text carries no provider limit.
 */
export function limitNote(text: string, engineBudget: number | undefined): string | null {
  const limit = providerLimitOf(text);
  if (!limit) return null;
  const own = engineBudget !== undefined ? `; ${budgetText('engine', engineBudget)} (the context % in the tree) is a different figure` : '';
  return `${tokens(limit.prompt)} tokens > ${budgetText('provider', limit.window)}${own}`;
}
