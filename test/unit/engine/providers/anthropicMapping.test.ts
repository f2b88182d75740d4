import { describe, expect, it } from 'vitest';
import type { Message } from '../../../../engine/conversation/Message';
import {
  countCacheBreakpoints,
  fromAnthropicMessage,
  historyEndIndex,
  normalizeAnthropicUsage,
  toAnthropicMessages,
  toAnthropicParams,
  toolInput,
} from '../../../../engine/node/providers/anthropicMapping';
import { InvalidRequestError, MalformedResponseError } from '../../../../engine/providers/errors';
import type { ProviderRequest } from '../../../../engine/providers/Provider';

const CC = { type: 'ephemeral' };
const user = (id: string, content: string): Message => ({ id, role: 'user', content });
const transient = (id: string, content: string): Message => ({ id, role: 'user', kind: 'transient', source: 'memory', content });
const assistant = (id: string, content: string, calls: [string, string][] = []): Message => ({
  id,
  role: 'assistant',
  content,
  toolCalls: calls.map(([cid, args]) => ({ id: cid, name: 'f', arguments: args })),
});
const result = (id: string, callId: string, content: string, isError = false): Message => ({ id, role: 'tool', toolCallId: callId, content, isError });

const req = (overrides: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model: 'claude-x',
  system: [
    { text: 'static', cacheBreakpoint: true },
    { text: 'volatile', cacheBreakpoint: false },
  ],
  messages: [user('u', 'hi')],
  historyBreakpoint: true,
  tools: [],
  maxOutputTokens: 100,
  ...overrides,
});

describe('[providers] Anthropic request mapping', () => {
  it('[providers] system blocks are text blocks with cache_control only on the flagged ones', () => {
    const params = toAnthropicParams(req(), 'claude-x');
    expect(params.system).toEqual([
      { type: 'text', text: 'static', cache_control: CC },
      { type: 'text', text: 'volatile' },
    ]);
    expect(params).toMatchObject({ model: 'claude-x', max_tokens: 100 });
    expect('tools' in params).toBe(false);
    expect('system' in toAnthropicParams(req({ system: [] }), 'm')).toBe(false);
  });

  it('[providers] tools carry their JSON schema as input_schema', () => {
    const params = toAnthropicParams(req({ tools: [{ name: 't', description: 'd', parameters: { type: 'object', properties: { a: { type: 'string' } } } }] }), 'm');
    expect(params.tools).toEqual([{ name: 't', description: 'd', input_schema: { type: 'object', properties: { a: { type: 'string' } } } }]);
  });

  it('[providers] merges tool results, user text and transients into one user message, tool_result blocks first', () => {
    const { messages } = toAnthropicMessages(
      [user('u', 'go'), assistant('a', 'calling', [['c1', '{"x":1}'], ['c2', '']]), result('r1', 'c1', 'one'), result('r2', 'c2', 'two', true), user('u2', 'also this'), transient('t', 'memo')],
      false,
    );
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'calling' },
          { type: 'tool_use', id: 'c1', name: 'f', input: { x: 1 } },
          { type: 'tool_use', id: 'c2', name: 'f', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'two', is_error: true },
          { type: 'text', text: 'also this' },
          { type: 'text', text: 'memo' },
        ],
      },
    ]);
  });

  it('[providers] keeps tool_result blocks ahead of text even when text came first', () => {
    const { messages } = toAnthropicMessages([assistant('a', '', [['c1', '{}']]), user('u', 'note'), result('r', 'c1', 'res')], false);
    expect(messages[1]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'res' },
      { type: 'text', text: 'note' },
    ]);
  });

  it('[providers] the history breakpoint goes on the last block of the last message before the trailing transients', () => {
    const cases: { messages: Message[]; marked: unknown }[] = [
      { messages: [user('u', 'a'), transient('t1', 'x'), transient('t2', 'y')], marked: { type: 'text', text: 'a', cache_control: CC } },
      { messages: [user('u', 'a'), assistant('a', 'b', [['c', '{}']]), result('r', 'c', 'out'), transient('t', 'x')], marked: { type: 'tool_result', tool_use_id: 'c', content: 'out', cache_control: CC } },
      { messages: [user('u', 'a'), assistant('a', 'b', [['c', '{"k":2}']])], marked: { type: 'tool_use', id: 'c', name: 'f', input: { k: 2 }, cache_control: CC } },
      { messages: [user('u', 'a'), assistant('a', 'final', [])], marked: { type: 'text', text: 'final', cache_control: CC } },
    ];
    for (const { messages, marked } of cases) {
      const out = toAnthropicMessages(messages, true);
      expect(out.historyBreakpoints).toBe(1);
      const blocks = out.messages.flatMap((m) => m.content as unknown[]);
      expect(blocks.filter((b) => (b as { cache_control?: unknown }).cache_control)).toEqual([marked]);
    }
  });

  it('[providers] no history breakpoint when asked for none or when only transients are there', () => {
    expect(toAnthropicMessages([user('u', 'a'), transient('t', 'x')], false).historyBreakpoints).toBe(0);
    expect(toAnthropicMessages([transient('t', 'x')], true).historyBreakpoints).toBe(0);
    expect(historyEndIndex([transient('t', 'x')])).toBe(-1);
    expect(historyEndIndex([user('u', 'a'), transient('t', 'x'), transient('t2', 'y')])).toBe(0);
  });

  it('[providers] refuses more than 4 breakpoints before sending, and allows exactly 4', () => {
    const three = [1, 2, 3].map((i) => ({ text: `s${i}`, cacheBreakpoint: true }));
    expect(countCacheBreakpoints(toAnthropicParams(req({ system: three }), 'm'))).toBe(4);
    expect(() => toAnthropicParams(req({ system: [...three, { text: 's4', cacheBreakpoint: true }] }), 'm')).toThrow(InvalidRequestError);
    expect(() => toAnthropicParams(req({ system: [...three, { text: 's4', cacheBreakpoint: true }] }), 'm')).toThrow(/5 cache breakpoints \(4 system \+ 1 history\)/);
    expect(countCacheBreakpoints(toAnthropicParams(req({ system: [...three, { text: 's4', cacheBreakpoint: true }], historyBreakpoint: false }), 'm'))).toBe(4);
  });

  it('[providers] tool-call arguments must be a JSON object; empty means {}', () => {
    expect(toolInput({ id: 'c', name: 'f', arguments: ' ' })).toEqual({});
    expect(toolInput({ id: 'c', name: 'f', arguments: '{"a":{"b":[1]}}' })).toEqual({ a: { b: [1] } });
    expect(() => toolInput({ id: 'c9', name: 'f', arguments: '{"a":' })).toThrow(/c9 \(f\).*not valid JSON/);
    expect(() => toolInput({ id: 'c9', name: 'f', arguments: '[1]' })).toThrow(/not a JSON object/);
  });

  it('[providers] drops empty text blocks and refuses system-role messages', () => {
    const { messages } = toAnthropicMessages([user('u', 'a'), assistant('a', '', [['c', '{}']]), result('r', 'c', 'x')], false);
    expect(messages[1]!.content).toEqual([{ type: 'tool_use', id: 'c', name: 'f', input: {} }]);
    expect(() => toAnthropicMessages([{ id: 's', role: 'system', kind: 'summary', content: 'x', sourceTurnIds: [] }], false)).toThrow(/system-role message s/);
  });
});

describe('[providers] Anthropic response mapping', () => {
  it('[providers] normalises usage: input, cache read and cache write apart', () => {
    expect(normalizeAnthropicUsage({ input_tokens: 12, cache_read_input_tokens: 3000, cache_creation_input_tokens: 200, output_tokens: 7 })).toEqual({ input: 12, cacheRead: 3000, cacheWrite: 200, output: 7 });
    expect(normalizeAnthropicUsage({ input_tokens: 12, cache_read_input_tokens: null, output_tokens: 7 })).toEqual({ input: 12, cacheRead: 0, cacheWrite: 0, output: 7 });
  });

  it('[providers] joins text blocks, turns tool_use into calls with JSON arguments, keeps model and stop reason', () => {
    const res = fromAnthropicMessage({
      model: 'claude-x-1',
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'a' },
        { type: 'thinking', thinking: 'hidden', signature: 's' },
        { type: 'text', text: 'b' },
        { type: 'tool_use', id: 't1', name: 'f', input: { q: 'x' } },
      ],
      usage: { input_tokens: 1, output_tokens: 2 },
    });
    expect(res).toEqual({ text: 'ab', toolCalls: [{ id: 't1', name: 'f', arguments: '{"q":"x"}' }], usage: { input: 1, cacheRead: 0, cacheWrite: 0, output: 2 }, model: 'claude-x-1', stopReason: 'tool_use' });
  });

  it.each([
    ['a text body', 'nope'],
    ['no content', { type: 'message' }],
    ['a non-object block', { content: ['x'] }],
    ['a tool_use without id', { content: [{ type: 'tool_use', name: 'f', input: {} }] }],
  ])('[providers] a message with %s is malformed', (_label, body) => {
    expect(() => fromAnthropicMessage(body)).toThrow(MalformedResponseError);
  });
});
