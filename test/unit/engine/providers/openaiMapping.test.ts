import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../engine/conversation/Message';
import { MalformedResponseError } from '../../../../engine/providers/errors';
import { fromOpenAICompletion, normalizeOpenAIUsage, OpenAIStreamAssembler, toOpenAIParams } from '../../../../engine/node/providers/openaiMapping';
import type { ProviderRequest } from '../../../../engine/providers/Provider';

const req = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'gpt-x',
  system: [
    { text: 'static', cacheBreakpoint: true },
    { text: 'project', cacheBreakpoint: false },
  ],
  messages: [{ id: 'u', role: 'user', content: 'hi' }],
  historyBreakpoint: true,
  tools: [],
  maxOutputTokens: 100,
  ...overrides,
});

describe('[providers] OpenAI request mapping', () => {
  it('[providers] joins the system blocks with a blank line into one system message, first', () => {
    const params = toOpenAIParams(req(), 'gpt-x');
    expect(params.messages[0]).toEqual({ role: 'system', content: 'static\n\nproject' });
    expect(params).toMatchObject({ model: 'gpt-x', max_completion_tokens: 100 });
    expect('tools' in params).toBe(false);
    expect('prompt_cache_key' in params).toBe(false);
  });

  it('[providers] omits an empty system prompt and carries prompt_cache_key and function tools', () => {
    const params = toOpenAIParams(
      req({ system: [], cacheKey: 'agent-1', tools: [{ name: 'f', description: 'd', parameters: { type: 'object', properties: {} } }] }),
      'gpt-x',
    );
    expect(params.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(params.prompt_cache_key).toBe('agent-1');
    expect(params.tools).toEqual([{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }]);
  });

  it('[providers] maps assistant tool calls (content null when empty), tool results and transients', () => {
    const messages: Message[] = [
      { id: 'u', role: 'user', content: 'go' },
      { id: 'a', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{"x":1}' }] },
      { id: 'r', role: 'tool', toolCallId: 'c1', content: 'done', isError: true },
      { id: 'a2', role: 'assistant', content: 'ok', toolCalls: [] },
      { id: 't', role: 'user', kind: 'transient', source: 'reminder', content: 'remember' },
    ];
    expect(toOpenAIParams(req({ system: [], messages }), 'm').messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'remember' },
    ]);
  });

  it('[providers] refuses a system-role message among the messages', () => {
    const messages: Message[] = [{ id: 's', role: 'system', kind: 'canonical', content: 'x' }];
    expect(() => toOpenAIParams(req({ messages }), 'm')).toThrow(/system-role message s/);
  });
});

describe('[providers] OpenAI response mapping', () => {
  it('[providers] normalises usage: input excludes the cached tokens counted inside prompt_tokens', () => {
    expect(normalizeOpenAIUsage({ prompt_tokens: 2000, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 1536 } })).toEqual({ input: 464, cacheRead: 1536, cacheWrite: 0, output: 30 });
    expect(normalizeOpenAIUsage({ prompt_tokens: 10, completion_tokens: 1 })).toEqual({ input: 10, cacheRead: 0, cacheWrite: 0, output: 1 });
    expect(normalizeOpenAIUsage(undefined)).toEqual({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });
  });

  it('[providers] reads text, tool calls (arguments kept as JSON text, empty → {}), model and finish reason', () => {
    const res = fromOpenAICompletion({
      model: 'gpt-x-2025',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a": [1, 2]}' } },
              { id: 'c2', type: 'function', function: { name: 'g', arguments: '' } },
              { id: 'c3', type: 'custom', custom: { name: 'h', input: 'x' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });
    expect(res).toEqual({
      text: '',
      toolCalls: [
        { id: 'c1', name: 'f', arguments: '{"a": [1, 2]}' },
        { id: 'c2', name: 'g', arguments: '{}' },
      ],
      usage: { input: 5, cacheRead: 0, cacheWrite: 0, output: 2 },
      model: 'gpt-x-2025',
      stopReason: 'tool_calls',
    });
  });

  it('[providers] keeps unparseable tool-call arguments as the JSON text the model sent', () => {
    const res = fromOpenAICompletion({ choices: [{ message: { content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] } }] });
    expect(res.toolCalls[0]!.arguments).toBe('{"a":');
  });

  it.each([
    ['a text body', 'oops'],
    ['no choices', { id: 'x' }],
    ['empty choices', { choices: [] }],
    ['a choice without message', { choices: [{ index: 0 }] }],
    ['non-text content', { choices: [{ message: { content: 42 } }] }],
    ['a tool call without a name', { choices: [{ message: { content: null, tool_calls: [{ id: 'c', type: 'function', function: {} }] } }] }],
  ])('[providers] a body with %s is malformed', (_label, body) => {
    expect(() => fromOpenAICompletion(body)).toThrow(MalformedResponseError);
  });
});

describe('[providers] OpenAI stream assembly', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ model: 'gpt-x', choices: [{ index: 0, delta, finish_reason: finish }] });

  it('[providers] appends text, merges interleaved tool-call deltas by index, and takes usage from the final chunk', () => {
    const a = new OpenAIStreamAssembler();
    a.push(chunk({ role: 'assistant', content: '' }));
    a.push(chunk({ content: 'Hel' }));
    a.push(chunk({ content: 'lo' }));
    a.push(chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'g', arguments: '' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"p"' } }] }));
    a.push(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"q":2}' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }));
    a.push(chunk({}, 'tool_calls'));
    a.push({ model: 'gpt-x', choices: [], usage: { prompt_tokens: 1500, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 1024 } } });
    expect(a.result()).toEqual({
      text: 'Hello',
      toolCalls: [
        { id: 'c1', name: 'f', arguments: '{"p":1}' },
        { id: 'c2', name: 'g', arguments: '{"q":2}' },
      ],
      usage: { input: 476, cacheRead: 1024, cacheWrite: 0, output: 9 },
      model: 'gpt-x',
      stopReason: 'tool_calls',
    });
  });

  it('[providers] a stream with no chunks, no choices or a nameless tool call is malformed', () => {
    expect(() => new OpenAIStreamAssembler().result()).toThrow(/without any chunk/);
    const noChoice = new OpenAIStreamAssembler();
    noChoice.push({ id: 'x' });
    expect(() => noChoice.result()).toThrow(/without a choice/);
    const nameless = new OpenAIStreamAssembler();
    nameless.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }));
    expect(() => nameless.result()).toThrow(MalformedResponseError);
    expect(() => new OpenAIStreamAssembler().push('text')).toThrow(MalformedResponseError);
  });
});
