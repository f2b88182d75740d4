import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ToolCall } from '../../conversation/Message';
import { InvalidRequestError, MalformedResponseError } from '../../providers/errors';
import type { ProviderRequest, ProviderResponse, Usage } from '../../providers/Provider';

/**
 * Pure mapping between the provider port and the OpenAI chat-completions wire format. The system
 * blocks become ONE system message (blocks joined by a blank line; OpenAI caches prefixes by
 * itself, so breakpoints have no wire form); tool-call arguments stay JSON text both ways; usage
 * is normalised so `input` excludes the cached tokens OpenAI counts inside `prompt_tokens`.
 */

/** The request body (without `stream`/`stream_options`, which the adapter adds). */
export function toOpenAIParams(request: ProviderRequest, model: string): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  const system = request.system.map((b) => b.text).join('\n\n');
  if (system.length > 0) messages.push({ role: 'system', content: system });

  for (const m of request.messages) {
    switch (m.role) {
      case 'system':
        throw new InvalidRequestError(`openai: system-role message ${m.id} in messages; system text belongs in request.system`);
      case 'user':
        messages.push({ role: 'user', content: m.content });
        break;
      case 'assistant':
        if (m.toolCalls.length > 0) {
          messages.push({
            role: 'assistant',
            content: m.content.length > 0 ? m.content : null,
            tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
          });
        } else {
          messages.push({ role: 'assistant', content: m.content });
        }
        break;
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
        break;
    }
  }

  const params: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages,
    max_completion_tokens: request.maxOutputTokens,
  };
  if (request.tools.length > 0) params.tools = request.tools.map(toOpenAITool);
  if (request.cacheKey !== undefined && request.cacheKey.length > 0) params.prompt_cache_key = request.cacheKey;
  return params;
}

function toOpenAITool(tool: ProviderRequest['tools'][number]): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * `input = prompt_tokens − cached_tokens`, `cacheRead = cached_tokens`, `cacheWrite = 0` (OpenAI
 * writes its cache implicitly), `output = completion_tokens`. A missing usage object is all zeros.
 */
export function normalizeOpenAIUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  const prompt = num(usage['prompt_tokens']);
  const details = usage['prompt_tokens_details'];
  const cached = Math.min(prompt, isRecord(details) ? num(details['cached_tokens']) : 0);
  return { input: Math.max(0, prompt - cached), cacheRead: cached, cacheWrite: 0, output: num(usage['completion_tokens']) };
}

/** Empty arguments (some servers send "" for a no-argument call) become `{}`; anything else stays as sent. */
const argumentsText = (v: unknown): string => (typeof v === 'string' && v.length > 0 ? v : '{}');

/** A non-streaming chat completion → the port's response. Throws `MalformedResponseError` on a body that is not one. */
export function fromOpenAICompletion(body: unknown): ProviderResponse {
  if (!isRecord(body)) throw new MalformedResponseError(`expected a JSON chat completion, got ${typeof body === 'string' ? 'text' : typeof body}`);
  const choices = body['choices'];
  if (!Array.isArray(choices) || choices.length === 0) throw new MalformedResponseError('chat completion without choices');
  const choice = choices[0] as unknown;
  if (!isRecord(choice) || !isRecord(choice['message'])) throw new MalformedResponseError('chat completion choice without a message');
  const message = choice['message'];
  const content = message['content'];
  if (content !== null && content !== undefined && typeof content !== 'string') throw new MalformedResponseError('message content is not text');
  const refusal = message['refusal'];

  const toolCalls: ToolCall[] = [];
  const rawCalls = message['tool_calls'];
  if (rawCalls !== undefined && rawCalls !== null) {
    if (!Array.isArray(rawCalls)) throw new MalformedResponseError('tool_calls is not a list');
    for (const raw of rawCalls as unknown[]) {
      if (!isRecord(raw) || raw['type'] !== 'function') continue;
      const fn = raw['function'];
      if (!isRecord(fn) || typeof raw['id'] !== 'string' || typeof fn['name'] !== 'string') throw new MalformedResponseError('tool call without id or function name');
      toolCalls.push({ id: raw['id'], name: fn['name'], arguments: argumentsText(fn['arguments']) });
    }
  }

  return {
    text: typeof content === 'string' ? content : typeof refusal === 'string' ? refusal : '',
    toolCalls,
    usage: normalizeOpenAIUsage(body['usage']),
    model: typeof body['model'] === 'string' ? body['model'] : '',
    stopReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : '',
  };
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles streamed `chat.completion.chunk`s: text deltas appended, tool-call deltas merged by
 * their `index` (id and name as they arrive, argument fragments appended), the finish reason of
 * choice 0, and the usage of the final chunk (`stream_options.include_usage`).
 */
export class OpenAIStreamAssembler {
  private text = '';
  private refusal = '';
  private readonly calls = new Map<number, PartialCall>();
  private usage: unknown = undefined;
  private model = '';
  private stopReason = '';
  private sawChoice = false;
  private chunks = 0;

  push(chunk: unknown): void {
    if (!isRecord(chunk)) throw new MalformedResponseError('stream chunk is not a JSON object');
    this.chunks += 1;
    if (typeof chunk['model'] === 'string' && chunk['model'].length > 0) this.model = chunk['model'];
    if (isRecord(chunk['usage'])) this.usage = chunk['usage'];
    const choices = chunk['choices'];
    if (choices === undefined || choices === null) return;
    if (!Array.isArray(choices)) throw new MalformedResponseError('stream chunk choices is not a list');
    for (const choice of choices as unknown[]) {
      if (!isRecord(choice) || (choice['index'] !== undefined && choice['index'] !== 0)) continue;
      this.sawChoice = true;
      if (typeof choice['finish_reason'] === 'string') this.stopReason = choice['finish_reason'];
      const delta = choice['delta'];
      if (!isRecord(delta)) continue;
      if (typeof delta['content'] === 'string') this.text += delta['content'];
      if (typeof delta['refusal'] === 'string') this.refusal += delta['refusal'];
      const toolCalls = delta['tool_calls'];
      if (!Array.isArray(toolCalls)) continue;
      for (const raw of toolCalls as unknown[]) {
        if (!isRecord(raw) || typeof raw['index'] !== 'number') throw new MalformedResponseError('tool-call delta without an index');
        const call = this.calls.get(raw['index']) ?? { id: '', name: '', arguments: '' };
        if (typeof raw['id'] === 'string' && raw['id'].length > 0) call.id = raw['id'];
        const fn = raw['function'];
        if (isRecord(fn)) {
          if (typeof fn['name'] === 'string' && fn['name'].length > 0) call.name = fn['name'];
          if (typeof fn['arguments'] === 'string') call.arguments += fn['arguments'];
        }
        this.calls.set(raw['index'], call);
      }
    }
  }

  result(): ProviderResponse {
    if (this.chunks === 0) throw new MalformedResponseError('stream ended without any chunk');
    if (!this.sawChoice) throw new MalformedResponseError('stream ended without a choice');
    const toolCalls: ToolCall[] = [];
    for (const index of [...this.calls.keys()].sort((a, b) => a - b)) {
      const call = this.calls.get(index)!;
      if (call.id.length === 0 || call.name.length === 0) throw new MalformedResponseError(`streamed tool call ${index} without id or name`);
      toolCalls.push({ id: call.id, name: call.name, arguments: argumentsText(call.arguments) });
    }
    return {
      text: this.text.length > 0 ? this.text : this.refusal,
      toolCalls,
      usage: normalizeOpenAIUsage(this.usage),
      model: this.model,
      stopReason: this.stopReason,
    };
  }
}
