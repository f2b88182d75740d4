/**
 * Who sent a request, from what the real clients put in it (`[gateway-client-identity]`), read
 * from a capture of Claude Code 2.1.332 and from Codex 0.171.0's request headers:
 *
 * - Claude Code: `user-agent: claude-cli/2.1.332 (external, sdk-cli)`, the session in the
 *   `x-claude-code-session-id` header and again in `metadata.user_id` (a JSON string
 *   `{"device_id","account_uuid","session_id"}`; older versions wrote
 *   `user_<hash>_account_<uuid>_session_<uuid>`). The session id stays the same across
 *   `claude -p --continue` processes. A subagent's calls carry `x-claude-code-agent-id`.
 * - Codex: `user-agent: codex_exec/…` (and `originator`), the session in `session-id` /
 *   `session_id` (older: `conversation_id`), else the body's `prompt_cache_key`; its thread in
 *   `thread-id`, a subagent's parent thread in `x-codex-parent-thread-id` and its kind in
 *   `x-openai-subagent` (`collab_spawn`, `compact`, `review`, …).
 */
import type { ClientThread } from './types';

export interface ClientIdentity {
  client?: string;
  clientSessionId?: string;
  clientThread?: ClientThread;
}

const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The product name of a `user-agent` (`claude-cli`, `codex_exec`, `OpenAI/JS`…): its first token before `/`. */
function clientOfUserAgent(userAgent: string | undefined): string | undefined {
  const first = nonEmpty(userAgent)?.split(/\s+/)[0];
  return first ? nonEmpty(first.split('/')[0]) : undefined;
}

/** The session id in Claude Code's `metadata.user_id`, in either of its two known shapes. */
export function sessionOfUserId(userId: unknown): string | undefined {
  const text = nonEmpty(userId);
  if (!text) return undefined;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) return nonEmpty((parsed as Record<string, unknown>)['session_id']);
    } catch {
      return undefined;
    }
    return undefined;
  }
  return /_session_([0-9a-zA-Z-]+)$/.exec(text)?.[1];
}

/** The client, its session and its own thread naming, from lower-case headers and the parsed body. */
export function clientIdentity(headers: Readonly<Record<string, string>>, body: Record<string, unknown>): ClientIdentity {
  const client = clientOfUserAgent(headers['user-agent']) ?? nonEmpty(headers['originator']);
  const metadata = body['metadata'];
  const userId = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>)['user_id'] : undefined;
  const clientSessionId =
    nonEmpty(headers['x-claude-code-session-id']) ??
    sessionOfUserId(userId) ??
    nonEmpty(headers['session-id']) ??
    nonEmpty(headers['session_id']) ??
    nonEmpty(headers['conversation_id']) ??
    nonEmpty(headers['conversation-id']) ??
    nonEmpty(body['prompt_cache_key']);
  const out: ClientIdentity = {};
  if (client) out.client = client;
  if (clientSessionId) out.clientSessionId = clientSessionId;
  const claudeAgent = nonEmpty(headers['x-claude-code-agent-id']);
  const codexThread = nonEmpty(headers['thread-id']) ?? nonEmpty(headers['thread_id']);
  if (claudeAgent) out.clientThread = { id: claudeAgent, kind: 'subagent' };
  else if (codexThread) {
    const thread: ClientThread = { id: codexThread };
    const parent = nonEmpty(headers['x-codex-parent-thread-id']);
    const kind = nonEmpty(headers['x-openai-subagent']);
    if (parent) thread.parent = parent;
    if (kind) thread.kind = kind;
    out.clientThread = thread;
  }
  return out;
}
