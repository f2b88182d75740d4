import type {
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message, ToolCall } from '../../conversation/Message';
import { InvalidRequestError, MalformedResponseError } from '../../providers/errors';
import type { ProviderRequest, ProviderResponse, Usage } from '../../providers/Provider';

/**
 * Pure mapping between the provider port and the Anthropic messages wire format.
 *
 * - `system` is a list of text blocks; a block flagged `cacheBreakpoint` carries
 *   `cache_control: {type: 'ephemeral'}`.
 * - Assistant messages become a text block (when not empty) and one `tool_use` block per call,
 *   `input` being the parsed JSON arguments (invalid JSON is refused before sending).
 * - Tool results become `tool_result` blocks of a user message; consecutive tool results, user
 *   text and transients merge into ONE user message, `tool_result` blocks first, then text.
 * - With `historyBreakpoint`, the last content block of the last message before the trailing
 *   transients carries `cache_control`, so the stable history prefix caches too.
 * - More than 4 breakpoints in all (Anthropic's limit) is refused before sending.
 */

const MAX_CACHE_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

type Block = TextBlockParam | ToolUseBlockParam | ToolResultBlockParam;
interface OutMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const isTransient = (m: Message): boolean => m.role === 'user' && 'kind' in m && m.kind === 'transient';

/** Index of the last message before the trailing transients (-1 when there is none). */
export function historyEndIndex(messages: readonly Message[]): number {
  let i = messages.length - 1;
  while (i >= 0 && isTransient(messages[i]!)) i -= 1;
  return i;
}

/** A call's JSON arguments as a tool_use `input` object; refuses text that is not a JSON object. */
export function toolInput(call: ToolCall): Record<string, unknown> {
  if (call.arguments.trim().length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    throw new InvalidRequestError(`anthropic: tool call ${call.id} (${call.name}) has arguments that are not valid JSON; refusing to send`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestError(`anthropic: tool call ${call.id} (${call.name}) has arguments that are not a JSON object; refusing to send`);
  }
  return parsed as Record<string, unknown>;
}

function blocksOf(m: Message): { role: 'user' | 'assistant'; blocks: Block[] } {
  switch (m.role) {
    case 'system':
      throw new InvalidRequestError(`anthropic: system-role message ${m.id} in messages; system text belongs in request.system`);
    case 'user':
      return { role: 'user', blocks: m.content.length > 0 ? [{ type: 'text', text: m.content }] : [] };
    case 'tool': {
      const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content };
      if (m.isError) block.is_error = true;
      return { role: 'user', blocks: [block] };
    }
    case 'assistant': {
      const blocks: Block[] = [];
      if (m.content.length > 0) blocks.push({ type: 'text', text: m.content });
      for (const call of m.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call) });
      return { role: 'assistant', blocks };
    }
  }
}

/** Appends blocks to a user message keeping every `tool_result` before any other block. */
function mergeInto(target: OutMessage, blocks: Block[]): void {
  for (const block of blocks) {
    if (target.role === 'user' && block.type === 'tool_result') {
      const firstOther = target.content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther === -1) target.content.push(block);
      else target.content.splice(firstOther, 0, block);
    } else {
      target.content.push(block);
    }
  }
}

export interface AnthropicMessagesResult {
  messages: MessageParam[];
  /** Whether a history breakpoint was placed (0 or 1). */
  historyBreakpoints: number;
}

/** The conversation as Anthropic messages, with the history breakpoint when asked for. */
export function toAnthropicMessages(messages: readonly Message[], historyBreakpoint: boolean): AnthropicMessagesResult {
  const end = historyEndIndex(messages);
  const out: OutMessage[] = [];
  let lastHistoryBlock: Block | undefined;
  messages.forEach((m, i) => {
    const { role, blocks } = blocksOf(m);
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) mergeInto(last, blocks);
    else out.push({ role, content: [...blocks] });
    if (i <= end) lastHistoryBlock = blocks.at(-1);
  });
  let placed = 0;
  if (historyBreakpoint && lastHistoryBlock) {
    lastHistoryBlock.cache_control = EPHEMERAL;
    placed = 1;
  }
  return { messages: out.map((m) => ({ role: m.role, content: m.content })), historyBreakpoints: placed };
}

function toAnthropicTool(tool: ProviderRequest['tools'][number]): Tool {
  return { name: tool.name, description: tool.description, input_schema: { type: 'object', ...tool.parameters } as Tool.InputSchema };
}

/** The request body (without `stream`). Throws `InvalidRequestError` before any call when it cannot be sent. */
export function toAnthropicParams(request: ProviderRequest, model: string): MessageCreateParamsNonStreaming {
  const system: TextBlockParam[] = request.system.map((b) => (b.cacheBreakpoint ? { type: 'text', text: b.text, cache_control: EPHEMERAL } : { type: 'text', text: b.text }));
  const systemBreakpoints = request.system.filter((b) => b.cacheBreakpoint).length;
  const { messages, historyBreakpoints } = toAnthropicMessages(request.messages, request.historyBreakpoint);
  const total = systemBreakpoints + historyBreakpoints;
  if (total > MAX_CACHE_BREAKPOINTS) {
    throw new InvalidRequestError(
      `anthropic: ${total} cache breakpoints (${systemBreakpoints} system + ${historyBreakpoints} history); Anthropic allows at most ${MAX_CACHE_BREAKPOINTS}`,
    );
  }
  const params: MessageCreateParamsNonStreaming = { model, max_tokens: request.maxOutputTokens, messages };
  if (system.length > 0) params.system = system;
  if (request.tools.length > 0) params.tools = request.tools.map(toAnthropicTool);
  return params;
}

/** Counts `cache_control` markers anywhere in a request body (system, tools, message blocks). */
export function countCacheBreakpoints(body: unknown): number {
  if (Array.isArray(body)) return body.reduce<number>((n, v) => n + countCacheBreakpoints(v), 0);
  if (typeof body !== 'object' || body === null) return 0;
  let n = 0;
  for (const [k, v] of Object.entries(body)) n += k === 'cache_control' && v ? 1 : countCacheBreakpoints(v);
  return n;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** `input = input_tokens`, `cacheRead = cache_read_input_tokens ?? 0`, `cacheWrite = cache_creation_input_tokens ?? 0`. */
export function normalizeAnthropicUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  return {
    input: num(usage['input_tokens']),
    cacheRead: num(usage['cache_read_input_tokens']),
    cacheWrite: num(usage['cache_creation_input_tokens']),
    output: num(usage['output_tokens']),
  };
}

/** An Anthropic message (non-streaming body or a stream's final message) → the port's response. */
export function fromAnthropicMessage(body: unknown): ProviderResponse {
  if (!isRecord(body)) throw new MalformedResponseError(`expected a JSON message, got ${typeof body === 'string' ? 'text' : typeof body}`);
  const content = body['content'];
  if (!Array.isArray(content)) throw new MalformedResponseError('message without a content list');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of content as unknown[]) {
    if (!isRecord(block)) throw new MalformedResponseError('content block is not an object');
    if (block['type'] === 'text') {
      if (typeof block['text'] !== 'string') throw new MalformedResponseError('text block without text');
      text += block['text'];
    } else if (block['type'] === 'tool_use') {
      if (typeof block['id'] !== 'string' || typeof block['name'] !== 'string') throw new MalformedResponseError('tool_use block without id or name');
      const input = block['input'] ?? {};
      toolCalls.push({ id: block['id'], name: block['name'], arguments: JSON.stringify(input) });
    }
  }
  return {
    text,
    toolCalls,
    usage: normalizeAnthropicUsage(body['usage']),
    model: typeof body['model'] === 'string' ? body['model'] : '',
    stopReason: typeof body['stop_reason'] === 'string' ? body['stop_reason'] : '',
  };
}
