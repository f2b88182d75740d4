import type { ParsedRequest } from './types';

/**
 * A client's own compaction, recognised in what it sends (`[gateway-threads]`), so the gateway
 * can label the summarising call and keep the main thread going after it:
 * - the compaction call: its last user message asks for the summary (Claude Code: "create a
 *   detailed summary of the conversation"; Codex: "CONTEXT CHECKPOINT COMPACTION", or its
 *   `x-openai-subagent: compact` header);
 * - the continuation: it opens from the summary (Claude Code's first user message "This session is
 *   being continued from a previous conversation"; Codex's user message "Another language model
 *   started to solve this problem").
 */

const COMPACTION_ASKS = [/create a detailed summary of the conversation/i, /CONTEXT CHECKPOINT COMPACTION/];
const CONTINUES_FROM_SUMMARY = [/^This session is being continued from a previous conversation/, /^Another language model started to solve this problem/];

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('\n');
}

/** The texts of the user's messages (or user input items), in order. */
function userTexts(request: ParsedRequest): string[] {
  const list = request.api === 'openai-responses' ? request.body['input'] : request.body['messages'];
  if (typeof list === 'string') return [list];
  if (!Array.isArray(list)) return [];
  return list.filter((m): m is Json => isRecord(m) && m['role'] === 'user').map((m) => textOf(m['content']));
}

export function isCompactionCall(request: ParsedRequest): boolean {
  if (request.clientThread?.kind === 'compact') return true;
  const last = userTexts(request).at(-1) ?? '';
  return COMPACTION_ASKS.some((r) => r.test(last));
}

export function continuesFromSummary(request: ParsedRequest): boolean {
  return userTexts(request).some((t) => CONTINUES_FROM_SUMMARY.some((r) => r.test(t.trimStart())));
}
