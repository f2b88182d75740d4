import type { Provider } from '../providers/Provider';
import type { Tokenizer } from '../tokens/Tokenizer';
import { clipField } from '../conversation/fallbackSummary';
import type { HistoryMessage } from '../conversation/Message';
import type { Summarizer } from '../conversation/Summarizer';

/** Heads every model-written summary: it is lossy, and the repository and newer messages win. */
export const MODEL_SUMMARY_HEADER = '[Conversation summary · model-written, lossy: the current repository and newer messages win]';

/** Characters of one message, one tool result, in the transcript the model is asked to summarize. */
const MESSAGE_CHARS = 4000;
const RESULT_CHARS = 1200;

const SUMMARY_INSTRUCTIONS = [
  'You compress the older part of a coding agent\'s conversation into one summary that replaces it.',
  'Keep: decisions and their reasons, every constraint or requirement the user stated, unresolved tasks and open questions, named entities (files, functions, tables, commands, ids) and the facts needed to continue.',
  'Omit: raw tool output and traces, repeated chatter, and intermediate reasoning that later messages superseded.',
  'If an earlier summary is given, fold it in: the result replaces it. Write plain text lines, most important first.',
].join('\n');

function render(m: HistoryMessage): string {
  if (m.role === 'assistant') {
    const calls = m.toolCalls.map((c) => `  call ${c.name} ${clipField(c.arguments, 300)}`).join('\n');
    return `assistant: ${m.content.slice(0, MESSAGE_CHARS)}${calls ? `\n${calls}` : ''}`;
  }
  if (m.role === 'tool') return `tool result${m.isError ? ' (error)' : ''}: ${m.content.slice(0, RESULT_CHARS)}`;
  return `user: ${m.content.slice(0, MESSAGE_CHARS)}`;
}

/**
 * The summarizer port backed by a model (`[summary-model]`), used when a provider is configured: one
 * provider call with the keep/omit instructions and the prefix as a transcript, asked for at most
 * the summary cap. The answer is checked with the conversation's tokenizer: a blank or over-long
 * answer, or a provider error, throws, so the compression fails and the history stays unchanged.
 */
export function modelSummarizer(provider: Provider, options: { model: string; tokenizer: Tokenizer }): Summarizer {
  const headerTokens = options.tokenizer.count(MODEL_SUMMARY_HEADER) + 1;
  return {
    async summarize({ previousSummary, messages, maxTokens }) {
      const room = maxTokens - headerTokens;
      if (room < 16) throw new Error(`a summary cap of ${maxTokens} tokens leaves no room for a model-written summary`);
      const transcript = [...(previousSummary ? [`earlier summary:\n${previousSummary}`] : []), ...messages.map(render)].join('\n\n');
      const response = await provider.complete({
        model: options.model,
        system: [{ text: `${SUMMARY_INSTRUCTIONS}\nAt most ${room} tokens.`, cacheBreakpoint: false }],
        messages: [{ id: 'summarize', role: 'user', content: `Summarize this conversation prefix:\n\n${transcript}` }],
        historyBreakpoint: false,
        tools: [],
        maxOutputTokens: room,
      });
      const text = response.text.trim();
      if (text === '') throw new Error('the model returned an empty summary');
      const summary = `${MODEL_SUMMARY_HEADER}\n${text}`;
      const tokens = options.tokenizer.count(summary);
      if (tokens > maxTokens) throw new Error(`the model's summary has ${tokens} tokens, over the cap of ${maxTokens}`);
      return summary;
    },
  };
}
