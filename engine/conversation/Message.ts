/**
 * The typed messages of one conversation, provider-neutral. Providers map them to their own
 * shapes (OpenAI chat messages, Anthropic content blocks); the ContextManager keeps them valid for
 * both at every step.
 */
export interface ToolCall {
  /** Provider tool-call id; every call gets exactly one result with the same id. */
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

/** The single canonical system prompt (exactly one per conversation, always first). */
export interface SystemMessage {
  id: string;
  role: 'system';
  kind: 'canonical';
  content: string;
}

/** The generated summary of a compressed prefix (at most one, right after the system prompt). */
export interface SummaryMessage {
  id: string;
  role: 'system';
  kind: 'summary';
  content: string;
  /** Turn ids whose messages it replaced. */
  sourceTurnIds: string[];
}

/**
 * Something injected for one request only (retrieved memory, selected skills, runtime state). It
 * travels as user-role content at the TAIL of the request, after the history: volatile material
 * placed before the history would change the prompt prefix on every request and defeat the
 * provider's prompt cache (the flaw DESIGN.md notes in Zara's context manager).
 */
export interface TransientMessage {
  id: string;
  role: 'user';
  kind: 'transient';
  /** What it is, for the audit and the inspector. */
  source: 'memory' | 'skills' | 'runtime' | 'reminder' | 'pressure';
  content: string;
}

export interface UserMessage {
  id: string;
  role: 'user';
  content: string;
}

export interface AssistantMessage {
  id: string;
  role: 'assistant';
  content: string;
  toolCalls: ToolCall[];
}

export interface ToolResultMessage {
  id: string;
  role: 'tool';
  toolCallId: string;
  content: string;
  isError: boolean;
}

export type Message = SystemMessage | SummaryMessage | TransientMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A message that belongs to the persisted history (not the system prompt, summary or transients). */
export type HistoryMessage = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * The atomic unit of history: a user message alone, or an assistant message together with every
 * result of its tool calls. Truncation and compression remove whole groups only.
 */
export interface TurnGroup {
  id: string;
  /** The turn (one user input and what followed it) the group belongs to. */
  turnId: string;
  messages: HistoryMessage[];
}
