import { describe, expect, it } from 'vitest';
import { importGeminiCli } from '../../../../engine/traces/geminiCli';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

/** One JSONL line per object: a made-up chat in the shape Gemini CLI 0.61 records. */
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const FILE = 'chats/session-made-up.jsonl';
const meta = { sessionId: 's-1', projectHash: 'abc', startTime: '2026-05-01T10:00:00.000Z', lastUpdated: '2026-05-01T10:00:00.000Z', kind: 'main' };
const at = (s: number) => `2026-05-01T10:00:${String(s).padStart(2, '0')}.000Z`;
const user = (id: string, content: unknown, s = 1) => ({ id, timestamp: at(s), type: 'user', content });
const tokens = (input: number, cached: number, output: number, thoughts = 0, tool = 0) => ({ input, output, cached, thoughts, tool, total: input + output + thoughts + tool });
const gemini = (id: string, content: unknown, extra: object = {}, s = 2) => ({ id, timestamp: at(s), type: 'gemini', content, thoughts: [], model: 'gemini-made-up', ...extra });
const call = (id: string, name: string, args: object, output: string, status = 'success') => ({
  id,
  name,
  args,
  result: [{ functionResponse: { id, name, response: status === 'error' ? { error: output } : { output } } }],
  status,
  timestamp: at(3),
});
const response = (id: string, name: string, output: string) => ({ functionResponse: { id, name, response: { output } } });
const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('gemini-cli importer', () => {
  it('[trace-gemini-cli] a response written again with the same id (tokens, then tool calls) is one step with one usage, placed where it first appeared', () => {
    const first = gemini('g1', 'Reading it.', { tokens: tokens(1000, 400, 20, 5) });
    const text = jsonl(
      meta,
      user('u1', [{ text: 'read notes.txt' }]),
      { $set: { lastUpdated: at(1) } },
      first,
      { ...first, toolCalls: [call('c1', 'read_file', { file_path: 'notes.txt' }, 'hello\n')] },
      user('u2', [response('c1', 'read_file', 'hello\n')], 4),
      gemini('g2', 'It says hello.', { tokens: tokens(1100, 1000, 10) }, 5),
    );
    const { events, format } = importGeminiCli(text, FILE);
    expect(format).toBe('gemini-cli-jsonl');
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['assistant_text', 1],
      ['usage', 1],
    ]);
    // the call is sourced at the line that first recorded it; its result once, from the tool turn
    expect(events[2]).toMatchObject({ type: 'tool_call', callId: 'c1', name: 'read_file', arguments: '{"file_path":"notes.txt"}', source: { file: FILE, line: 5 } });
    expect(events.filter((e) => e.type === 'tool_result')).toEqual([{ type: 'tool_result', callId: 'c1', content: 'hello\n', isError: false, at: at(4), source: { file: FILE, line: 6 } }]);
    expect(events[1]).toMatchObject({ text: 'Reading it.', at: at(2), source: { file: FILE, line: 4 } });
  });

  it('[trace-gemini-cli] usage is disjoint: cached tokens are taken out of the prompt count, tool-use prompt tokens join input, thoughts join output', () => {
    const text = jsonl(meta, user('u1', 'go'), gemini('g1', 'ok', { tokens: tokens(1000, 400, 20, 5, 7) }));
    const usage = importGeminiCli(text, FILE).events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ input: 607, cacheRead: 400, cacheWrite: 0, output: 25, model: 'gemini-made-up', step: 0 });
  });

  it('[trace-gemini-cli] a session document (before 0.35) reads its tool results from the tool call records, with lines and paths', () => {
    const doc = {
      sessionId: 's-2',
      projectHash: 'abc',
      startTime: at(0),
      lastUpdated: at(9),
      messages: [
        user('u1', [{ text: 'list and fail' }]),
        gemini('g1', '', { tokens: tokens(500, 0, 9), toolCalls: [call('c1', 'list_directory', { dir_path: '.' }, 'a.txt'), call('c2', 'run_shell_command', { command: 'false' }, 'exit 1', 'error')] }),
        gemini('g2', [{ text: 'thinking…', thought: true }, { text: 'Done.' }], { tokens: tokens(600, 500, 4) }),
      ],
    };
    const text = JSON.stringify(doc, null, 2);
    const { events, format, skipped } = importGeminiCli(text, 'session-x.json');
    expect(format).toBe('gemini-cli-json');
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['tool_call', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['tool_result', null],
      ['assistant_text', 1],
      ['usage', 1],
    ]);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => [e.type === 'tool_result' && e.callId, e.type === 'tool_result' && e.isError])).toEqual([
      ['c1', false],
      ['c2', true],
    ]);
    const lines = text.split('\n');
    expect(lines[(events[1]?.source.line ?? 0) - 1]).toMatch(/^ {4}\{$/);
    expect(events[1]?.source.path).toBe('messages[1]');
    expect(events[6]).toMatchObject({ text: 'Done.', source: { path: 'messages[2]' } });
    expect(skipped['part:thought']).toBe(1);
  });

  it('[trace-gemini-cli] messages the client wrote (no model, tokens or calls) and info/error/warning notices are skipped, not steps', () => {
    const text = jsonl(
      meta,
      user('u1', 'go'),
      gemini('g1', 'fine', { tokens: tokens(100, 0, 1) }),
      { id: 'g2', timestamp: at(3), type: 'gemini', content: [{ text: 'Binary content received.', thought: true }] },
      { id: 'i1', timestamp: at(4), type: 'info', content: 'Request cancelled.' },
      { id: 'w1', timestamp: at(4), type: 'warning', content: 'Low disk.' },
    );
    const { events, skipped } = importGeminiCli(text, FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['usage', 0],
    ]);
    expect(skipped).toMatchObject({ 'message:info': 1, 'message:warning': 1, 'gemini message without model, tokens or calls (client-written)': 1 });
  });

  it('[trace-gemini-cli] a $set history that drops earlier messages and brings new user turns is one compaction; one that only drops a tail, and $rewindTo, are skipped', () => {
    const text = jsonl(
      meta,
      { $set: { messages: [user('ctx', [{ text: '<session_context>made up</session_context>' }], 0)] } },
      user('u1', 'step one'),
      gemini('g1', 'one', { tokens: tokens(100, 0, 1) }),
      user('u2', 'step two', 3),
      gemini('g2', 'two', { tokens: tokens(200, 100, 1) }, 4),
      { $set: { messages: [user('ctx', [{ text: '<session_context>made up</session_context>' }], 0), user('u1', 'step one'), gemini('g1', 'one', { tokens: tokens(100, 0, 1) })] } },
      { $set: { messages: [user('sum', [{ text: 'Summary: did one and two.' }], 5), { id: 'ack', timestamp: at(5), type: 'gemini', content: [{ text: 'Got it.' }] }] } },
      user('u3', 'step three', 6),
      { $rewindTo: 'u3' },
      gemini('g3', 'three', { tokens: tokens(50, 0, 1) }, 7),
    );
    const { events, skipped } = importGeminiCli(text, FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['user_input', null],
      ['assistant_text', 0],
      ['usage', 0],
      ['user_input', null],
      ['assistant_text', 1],
      ['usage', 1],
      ['compaction', null],
      ['user_input', null],
      ['assistant_text', 2],
      ['usage', 2],
    ]);
    expect(events[0]).toMatchObject({ text: '<session_context>made up</session_context>', source: { line: 2, path: '$set.messages[0]' } });
    expect(events[7]).toMatchObject({ type: 'compaction', summary: 'Summary: did one and two.', source: { line: 8, path: '$set.messages[0]' } });
    expect(skipped).toMatchObject({ 'history rolled back': 1, $rewindTo: 1, 'gemini message without model, tokens or calls (client-written)': 1 });
  });

  it('[trace-gemini-cli] a broken line names its file and line; a tool call without an id names its message', () => {
    const good = jsonl(meta, user('u1', 'go'));
    expect(() => importGeminiCli(`${good}{"id": "g1", "type": "gem`, FILE)).toThrow(new RegExp(`^${FILE.replace(/\./g, '\\.')}:3:\\d+: line is not valid JSON`));
    const noId = jsonl(meta, user('u1', 'go'), gemini('g1', '', { toolCalls: [{ name: 'read_file', args: {} }] }));
    expect(() => importGeminiCli(noId, FILE)).toThrow(TraceImportError);
    expect(() => importGeminiCli(noId, FILE)).toThrow(`${FILE}:3: message g1 toolCalls[0] has no id`);
    expect(() => importGeminiCli(JSON.stringify({ sessionId: 's', projectHash: 'p' }, null, 2), 'a.json')).toThrow('a.json:1: expected a Gemini CLI session');
  });
});
