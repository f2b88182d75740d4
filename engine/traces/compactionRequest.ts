/**
 * What each client's compaction call sends beyond the history it summarises, as measured with the
 * real-client harness (`test/integration/realClients/`, the scripted server's log of the real
 * request), since no session file records that request. Figures are o200k tokens. Pure.
 *
 * - Claude Code 2.1.332: the history as it was, the tools and system prompt unchanged, and one
 *   text block appended to the last user message ("CRITICAL: Respond with TEXT ONLY… Your task is
 *   to create a detailed summary of the conversation so far…"): 1,286 tokens.
 * - Codex 0.171.0: the history as it was with `tools: []` (no tool schemas), and a last user
 *   message ("You are performing a CONTEXT CHECKPOINT COMPACTION…"): 89 tokens.
 */
import type { UsageEvent } from './TraceEvent';

export type CompactionRequest = NonNullable<UsageEvent['compactionRequest']>;

export const CLAUDE_CODE_COMPACTION: CompactionRequest = { toolsSent: true, instructionTokens: 1286 };
export const CODEX_COMPACTION: CompactionRequest = { toolsSent: false, instructionTokens: 89 };
