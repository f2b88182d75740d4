import { describe, expect, it } from 'vitest';
import { importOpenAIMessages } from '../../../../engine/traces/openaiMessages';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

const FILE = 'sessions/made-up.json';
/** Pretty-printed like the real files, so source lines are meaningful. */
const doc = (messages: object[], meta: object = {}): string => JSON.stringify({ messages, meta }, null, 2);
const at = (s: number) => `2026-01-04T08:00:${String(s).padStart(2, '0')}.000Z`;
const md = (s: number, extra: object = {}) => ({ _metadata: { timestamp: at(s), ...extra } });

const text = (t: string) => ({ type: 'text', text: t });
const callBlock = (id: string, name: string, args: object) => ({ type: 'tool_call', tool_call_id: id, name, arguments: JSON.stringify(args) });
const toolCalls = (id: string, name: string, args: object) => [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }];
/** A converted Claude Code record: one block per assistant message, results interleaved. */
const callMsg = (id: string, name: string, args: object, s: number) => ({ role: 'assistant', content: [callBlock(id, name, args)], tool_calls: toolCalls(id, name, args), ...md(s) });
const result = (id: string, out: string, s: number) => ({ role: 'tool', tool_call_id: id, content: [{ type: 'tool_output', text: out }], ...md(s) });
/** A converted token_count record (Claude: input_tokens excludes cached). */
const count = (s: number, input: number, cached: number, output: number) => ({
  type: 'token_count',
  info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output }, last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } },
  _timestamp: at(s),
});

const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('openai-messages-json importer', () => {
  it('per-block assistant messages of one converted response share a step (matched by token_counts time); one usage per call follows it', () => {
    const messages = [
      { role: 'user', content: [text('fix the seed')], ...md(0) },
      { role: 'assistant', content: [text('Reading first.')], ...md(1) },
      callMsg('t1', 'Read', { file: 'a.ts' }, 2),
      result('t1', 'A', 3),
      callMsg('t2', 'Read', { file: 'b.ts' }, 4),
      result('t2', 'B', 5),
      { role: 'assistant', content: [text('Both read.')], ...md(6) },
    ];
    const meta = { session_meta: { version: '2.1.0' }, token_counts: [count(1, 3, 1000, 20), count(2, 3, 1000, 40), count(4, 3, 1000, 66), count(6, 1, 1500, 9)] };
    const { events } = importOpenAIMessages(doc(messages, meta), FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['tool_result', null],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['assistant_text', 1],
      ['usage', 1],
    ]);
    const usages = events.filter((e) => e.type === 'usage');
    expect(usages.map((u) => [u.input, u.cacheRead, u.output])).toEqual([
      [3, 1000, 66],
      [1, 1500, 9],
    ]);
    expect(events[2]).toMatchObject({ type: 'tool_call', callId: 't1', name: 'Read', arguments: '{"file":"a.ts"}', at: at(2) });
  });

  it('a converted Codex session counts cached tokens inside input_tokens: input is normalised to the uncached part', () => {
    const messages = [
      { role: 'developer', content: [text('<permissions>')], ...md(0) },
      { role: 'system', content: [text('<environment_context>')], ...md(0) },
      { role: 'user', content: [text('go')], ...md(1) },
      { role: 'assistant', content: [text('Scanning.')], ...md(2) },
      callMsg('c1', 'exec_command', { cmd: 'rg x' }, 3),
      result('c1', 'none', 5),
    ];
    const meta = { session_meta: { originator: 'codex-tui' }, turn_contexts: [{ model: 'gpt-made-up', _timestamp: at(0) }], token_counts: [count(4, 13000, 9000, 200)] };
    const { events } = importOpenAIMessages(doc(messages, meta), FILE);
    expect(shape(events)).toEqual([
      ['instructions', null],
      ['instructions', null],
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
    ]);
    expect(events[5]).toMatchObject({ type: 'usage', input: 4000, cacheRead: 9000, cacheWrite: 0, output: 200, model: 'gpt-made-up' });
    expect(events[0]).toMatchObject({ type: 'instructions', role: 'developer', text: '<permissions>' });
  });

  it('OpenCode messages: steps by message_id, usage from _metadata.tokens, epoch-ms times, reasoning skipped, several calls per message', () => {
    const messages = [
      { role: 'user', content: [text('build it')], _metadata: { message_id: 'm0', timestamp: 1767513600000, tokens: null } },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: '[REDACTED]' }, { type: 'tool_use', tool_call_id: 'k1', name: 'read', arguments: '{"p":1}' }, { type: 'tool_use', tool_call_id: 'k2', name: 'read', arguments: '{"p":2}' }],
        tool_calls: [...toolCalls('k1', 'read', { p: 1 }), ...toolCalls('k2', 'read', { p: 2 })],
        _metadata: { message_id: 'm1', timestamp: 1767513601000, tokens: { total: 120, input: 90, output: 30, reasoning: 10, cache: { read: 400, write: 5 } } },
      },
      result('k1', 'one', 2),
      result('k2', 'two', 2),
    ];
    const { events, skipped } = importOpenAIMessages(doc(messages), FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['tool_call', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['tool_result', null],
    ]);
    expect(events[0]).toMatchObject({ at: '2026-01-04T08:00:00.000Z' });
    expect(events[3]).toMatchObject({ input: 90, cacheRead: 400, cacheWrite: 5, output: 30 });
    expect(skipped).toEqual({ 'block:reasoning': 1 });
  });

  it('merged subagent messages (role assistant-subagent-<id>) carry agentId and are bracketed by spawn and return', () => {
    const messages = [
      { role: 'user', content: [text('explore')], ...md(0) },
      callMsg('ag', 'Agent', { prompt: 'look' }, 1),
      { role: 'assistant-subagent-a7', content: [text('look')], _metadata: { timestamp: at(2), source: 'subagent', original_role: 'user' } },
      { role: 'assistant-subagent-a7', content: [callBlock('s1', 'Bash', { c: 'ls' })], _metadata: { timestamp: at(3), source: 'subagent', original_role: 'assistant' } },
      { role: 'assistant-subagent-a7', tool_call_id: 's1', content: [{ type: 'tool_output', text: 'x' }], _metadata: { timestamp: at(4), source: 'subagent', original_role: 'tool' } },
      // the spawning call's result nests the subagent's answer as blocks
      { role: 'tool', tool_call_id: 'ag', content: [{ type: 'tool_output', text: [text('found x')] }], ...md(5) },
    ];
    const { events } = importOpenAIMessages(doc(messages), FILE);
    expect(events.map((e) => [e.type, e.agentId ?? null])).toEqual([
      ['user_input', null],
      ['tool_call', null],
      ['subagent_spawn', 'a7'],
      ['user_input', 'a7'],
      ['tool_call', 'a7'],
      ['tool_result', 'a7'],
      ['subagent_return', 'a7'],
      ['tool_result', null],
    ]);
    expect(events[7]).toMatchObject({ callId: 'ag', content: 'found x' });
  });

  it('plain Chat Completions lists (string content, tool_calls, usage with cached prompt tokens) import too; unknown roles are counted', () => {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Running.', tool_calls: toolCalls('x1', 'bash', { command: 'ls' }), usage: { prompt_tokens: 1500, completion_tokens: 70, prompt_tokens_details: { cached_tokens: 1000 } } },
      { role: 'tool', tool_call_id: 'x1', content: 'ok' },
      { role: 'exit', content: 'bye' },
    ];
    const { events, unknown } = importOpenAIMessages(JSON.stringify(messages), FILE);
    expect(shape(events)).toEqual([
      ['instructions', null],
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
    ]);
    expect(events[4]).toMatchObject({ input: 500, cacheRead: 1000, output: 70 });
    expect(unknown).toEqual({ 'role:exit': 1 });
  });

  it('every event names the line where its message starts in the document', () => {
    const source = doc([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
    const { events } = importOpenAIMessages(source, FILE);
    const lines = source.split('\n');
    for (const e of events) expect(lines[e.source.line - 1]?.trim()).toBe('{');
    expect(events.map((e) => e.source.path)).toEqual(['messages[0]', 'messages[1]']);
    expect(events[1]?.source.line).toBeGreaterThan(events[0]?.source.line ?? Infinity);
  });

  it('a truncated document is a TraceImportError naming the file, line and column of the end', () => {
    const full = doc([{ role: 'user', content: 'hello' }]);
    const cut = full.slice(0, full.indexOf('hello') + 3);
    let error: unknown;
    try {
      importOpenAIMessages(cut, FILE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TraceImportError);
    const lastLine = cut.split('\n').length;
    expect(error).toMatchObject({ file: FILE, line: lastLine });
    expect((error as Error).message).toMatch(new RegExp(`^sessions/made-up\\.json:${lastLine}:\\d+: not valid JSON: unterminated string \\(the file may be truncated\\)$`));
  });

  it('a syntax error inside the document names its line and column', () => {
    const bad = '{\n  "messages": [\n    {"role": "user", "content": "x"}\n    {"role": "user"}\n  ]\n}';
    expect(() => importOpenAIMessages(bad, FILE)).toThrow(new TraceImportError(FILE, 4, "not valid JSON: expected ',' or ']'", 5));
  });

  it('a document of another shape, or a message without a role, is refused with its place', () => {
    expect(() => importOpenAIMessages('{"turns": []}', FILE)).toThrow(/^sessions\/made-up\.json:1: expected a JSON object with a "messages" array/);
    expect(() => importOpenAIMessages(doc([{ role: 'user', content: 'a' }, { content: 'no role' }]), FILE)).toThrow(/^sessions\/made-up\.json:7: messages\[1\] has no string role$/);
    expect(() => importOpenAIMessages('   ', FILE)).toThrow(new TraceImportError(FILE, 1, 'the file is empty'));
  });
});
