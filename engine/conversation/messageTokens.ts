import type { Tokenizer } from '../tokens/Tokenizer';
import type { Message } from './Message';

/**
 * Tokens a provider spends framing one message (role marker, separators), added to its text. A
 * fixed figure in the spirit of OpenAI's published per-message overhead, so an empty message still
 * costs something and a budget can never be met by splitting text into ever more messages.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Tokens of one message as the ContextManager budgets it: the overhead, the content, and for each
 * tool call its id, name and arguments (a tool result's call id is counted too). Deterministic for a
 * deterministic tokenizer, and additive, so the tokens of a list are the sum over its messages.
 */
export function messageTokens(message: Message, tokenizer: Tokenizer): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + tokenizer.count(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) tokens += tokenizer.count(call.id) + tokenizer.count(call.name) + tokenizer.count(call.arguments);
  } else if (message.role === 'tool') {
    tokens += tokenizer.count(message.toolCallId);
  }
  return tokens;
}
