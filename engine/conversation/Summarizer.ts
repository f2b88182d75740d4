import type { HistoryMessage } from './Message';

/** What a summarizer is asked to fold into one summary. */
export interface SummarizeInput {
  /** The current summary, to fold in (not nest): the new summary replaces it. */
  previousSummary?: string;
  /** The oldest complete groups, in order, that the summary replaces. */
  messages: HistoryMessage[];
  /** Cap on the summary's tokens, counted with the conversation's tokenizer. */
  maxTokens: number;
}

/**
 * The port that turns a conversation prefix into one summary. It may answer synchronously (the
 * deterministic extractive default makes no model call, and sync lets other pure code reuse it) or
 * with a promise (a model-backed summarizer is a network call). The manager always awaits the
 * answer and keeps the conversation unchanged until it has one, so either kind is safe.
 * Contract: return the summary text, at most `maxTokens` tokens and not blank; throw to fail.
 * A failure, a blank or an over-long answer changes nothing in the conversation.
 */
export interface Summarizer {
  summarize(input: SummarizeInput): Promise<string> | string;
}
