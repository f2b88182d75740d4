import type { Message } from '../../../engine/conversation/Message';
import type { ProviderRequest, ToolSpec } from '../../../engine/providers/Provider';

/** A key that must never appear in anything a provider returns or throws. */
export const KEY = 'sk-loopback-SECRET-7f3a9c2e41d8b6a05e';

/** Deterministic filler text of about `chars` characters. */
export function filler(label: string, chars: number): string {
  const words = ['context', 'engine', 'layer', 'cache', 'prefix', 'stable', 'token', 'budget', 'refresh', 'history'];
  let out = `${label}:`;
  for (let i = 0; out.length < chars; i += 1) out += ` ${words[(i * 7 + label.length) % words.length]}${i % 13}`;
  return out.slice(0, chars);
}

const READ_TOOL: ToolSpec = {
  name: 'read_file',
  description: 'Read a file of the workspace.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const GREP_TOOL: ToolSpec = {
  name: 'grep',
  description: 'Search the workspace.',
  parameters: { type: 'object', properties: { pattern: { type: 'string' }, glob: { type: 'string' } }, required: ['pattern'] },
};

/** A first turn: one user message, then a transient at the tail. */
function firstTurn(): Message[] {
  return [
    { id: 'u1', role: 'user', content: 'Where is the cache key computed?' },
    { id: 't1', role: 'user', kind: 'transient', source: 'memory', content: 'Recalled: cache keys live in engine/prompt.' },
  ];
}

/** A turn with a tool round trip, then a transient at the tail. */
export function toolTurn(): Message[] {
  return [
    { id: 'u1', role: 'user', content: 'Where is the cache key computed?' },
    { id: 'a1', role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"engine/prompt/key.ts"}' }] },
    { id: 'r1', role: 'tool', toolCallId: 'call_1', content: 'export const key = hash(prefix);', isError: false },
    { id: 't1', role: 'user', kind: 'transient', source: 'runtime', content: 'Runtime: 3 tool calls left.' },
  ];
}

/** A request with a long cacheable system prompt (two flagged blocks), tools and a cache key. */
export function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: 'test-model',
    system: [
      { text: filler('L0 static rules', 6000), cacheBreakpoint: true },
      { text: filler('L2 project', 1200), cacheBreakpoint: true },
    ],
    messages: firstTurn(),
    historyBreakpoint: true,
    tools: [READ_TOOL, GREP_TOOL],
    maxOutputTokens: 512,
    cacheKey: 'agent-7',
    ...overrides,
  };
}

/** An injectable sleep that records the delays it was asked for and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}

/** Runs `fn` and returns what it rejected with (fails when it resolves). */
export async function rejectionOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}
