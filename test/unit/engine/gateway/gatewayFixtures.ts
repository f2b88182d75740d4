/**
 * Request bodies and headers shaped like what the real clients send through the gateway, built
 * here (never copied from a capture): Claude Code 2.1.332's Messages requests (billing-header
 * system block, a breakpoint on the newest message that turns the one before back into a string,
 * `metadata.user_id` as a JSON string, `x-claude-code-session-id`, a subagent's
 * `x-claude-code-agent-id`), Codex 0.171.0's Responses requests (`session-id`, `thread-id`,
 * `x-codex-parent-thread-id`, `x-openai-subagent`) and a plain Chat Completions request.
 */

type Json = Record<string, unknown>;

export const CLAUDE_SESSION = '18d9fd72-0000-4ac1-9598-cf926e3ddcd6';

export function claudeHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)',
    'x-claude-code-session-id': CLAUDE_SESSION,
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'claude-code-20250219,extended-cache-ttl-2025-04-11',
    'content-type': 'application/json',
    ...extra,
  };
}

export const CLAUDE_TOOLS: Json[] = [
  { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
  { name: 'Bash', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
];

/** Claude Code's system: the per-process billing header, then the prompt with a 1-hour breakpoint. */
export function claudeSystem(version = '6e9', prompt = 'You are an agent working with the user toward their goals.'): Json[] {
  return [
    { type: 'text', text: `x-anthropic-billing-header: cc_version=2.1.332.${version}; cc_entrypoint=sdk-cli;` },
    { type: 'text', text: "You are a Claude agent, built on Anthropic's Claude Agent SDK.", cache_control: { type: 'ephemeral', ttl: '1h' } },
    { type: 'text', text: prompt },
  ];
}

/** A conversation's messages as Claude Code sends them: the newest message's last block carries the breakpoint, older ones are plain. */
function withBreakpointOnLast(messages: Json[]): Json[] {
  return messages.map((m, i) => {
    if (i !== messages.length - 1) return m;
    const content = typeof m['content'] === 'string' ? [{ type: 'text', text: m['content'] }] : (m['content'] as Json[]);
    return { ...m, content: content.map((c, k) => (k === content.length - 1 ? { ...c, cache_control: { type: 'ephemeral', ttl: '1h' } } : c)) };
  });
}

export const userText = (text: string): Json => ({ role: 'user', content: text });
export const toolUse = (id: string, name: string, input: Json, text = 'Working on it.'): Json => ({ role: 'assistant', content: [{ type: 'text', text }, { type: 'tool_use', id, name, input }] });
export const toolResult = (id: string, content: string): Json => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] });

export function claudeBody(messages: Json[], options: { system?: Json[]; tools?: Json[]; model?: string; stream?: boolean } = {}): Json {
  return {
    model: options.model ?? 'claude-opus-5-5',
    messages: withBreakpointOnLast(messages),
    system: options.system ?? claudeSystem(),
    tools: options.tools ?? CLAUDE_TOOLS,
    metadata: { user_id: JSON.stringify({ device_id: 'a1b2', account_uuid: '', session_id: CLAUDE_SESSION }) },
    max_tokens: 32000,
    thinking: { type: 'adaptive' },
    stream: options.stream ?? true,
  };
}

export const CODEX_SESSION = '019a-codex-session';

export function codexHeaders(thread: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'user-agent': 'codex_exec/0.171.0 (Ubuntu 24.4.0; x86_64) xterm', originator: 'codex_exec', 'session-id': CODEX_SESSION, 'thread-id': thread, 'content-type': 'application/json', ...extra };
}

export const codexUser = (text: string): Json => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
export const codexCall = (callId: string, cmd: string): Json => ({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: callId });
export const codexOutput = (callId: string, output: string): Json => ({ type: 'function_call_output', call_id: callId, output });

export function codexBody(input: Json[], options: { instructions?: string; model?: string } = {}): Json {
  return {
    model: options.model ?? 'gpt-5.5',
    instructions: options.instructions ?? 'You are Codex, a coding agent.',
    input,
    tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream: true,
    prompt_cache_key: CODEX_SESSION,
  };
}

export function chatBody(messages: Json[], options: { includeUsage?: boolean } = {}): Json {
  return {
    model: 'gpt-5.5',
    messages,
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    stream: true,
    ...(options.includeUsage ? { stream_options: { include_usage: true } } : {}),
  };
}

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
