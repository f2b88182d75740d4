import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../../../../engine/traces/claudeCode';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

/** One JSONL line per object: a made-up session in Claude Code's shape. */
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

const FILE = 'sessions/made-up.jsonl';
const user = (content: unknown, extra: object = {}) => ({ type: 'user', timestamp: '2026-01-02T10:00:00.000Z', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], usage: object, extra: object = {}) => ({
  type: 'assistant',
  timestamp: '2026-01-02T10:00:01.000Z',
  message: { id, role: 'assistant', model: 'claude-made-up-1', content: blocks, usage },
  ...extra,
});
const usage = (input: number, read: number, write: number, output: number) => ({ input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: output });

const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('claude-code-jsonl importer', () => {
  it('usage keeps the part of the cache writes made with a 1-hour lifetime (cache_creation.ephemeral_1h_input_tokens)', () => {
    const text = jsonl(
      user('hi'),
      assistant('msg_A', [{ type: 'text', text: 'a' }], { ...usage(1, 10, 300, 2), cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } }),
      assistant('msg_B', [{ type: 'text', text: 'b' }], usage(1, 10, 300, 2)),
    );
    const usages = importClaudeCode(text, FILE).events.filter((e) => e.type === 'usage');
    expect(usages[0]).toMatchObject({ cacheWrite: 300, cacheWrite1h: 200 });
    expect(usages[1]).not.toHaveProperty('cacheWrite1h');
  });

  it('a response split over lines sharing message.id is one step with ONE usage, the last line winning (usage grows per line)', () => {
    const text = jsonl(
      user('list the files'),
      assistant('msg_A', [{ type: 'thinking', thinking: '...' }], usage(3, 900, 100, 8)),
      assistant('msg_A', [{ type: 'text', text: 'Looking.' }], usage(3, 900, 100, 27)),
      assistant('msg_A', [{ type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'ls' } }], usage(3, 900, 100, 60)),
      // the result of the first parallel call is written before the second call's line
      user([{ type: 'tool_result', tool_use_id: 'tu_1', content: 'a.ts\nb.ts' }]),
      assistant('msg_A', [{ type: 'tool_use', id: 'tu_2', name: 'Read', input: { path: 'a.ts' } }], usage(3, 900, 100, 141)),
      user([{ type: 'tool_result', tool_use_id: 'tu_2', content: [{ type: 'text', text: 'export {}' }], is_error: true }]),
      assistant('msg_B', [{ type: 'text', text: 'Done.' }], usage(1, 1200, 0, 5)),
    );
    const { events, skipped } = importClaudeCode(text, FILE);
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
    expect(usages[0]).toMatchObject({ input: 3, cacheRead: 900, cacheWrite: 100, output: 141, model: 'claude-made-up-1', source: { file: FILE, line: 6 } });
    expect(usages[1]).toMatchObject({ input: 1, cacheRead: 1200, cacheWrite: 0, output: 5 });
    expect(events[2]).toMatchObject({ callId: 'tu_1', name: 'Bash', arguments: '{"command":"ls"}' });
    expect(events[6]).toMatchObject({ type: 'tool_result', callId: 'tu_2', content: 'export {}', isError: true });
    expect(events[0]).toMatchObject({ at: '2026-01-02T10:00:00.000Z', source: { file: FILE, line: 1 } });
    expect(skipped).toEqual({ 'assistant block:thinking': 1 });
  });

  it('a compact_boundary line and the isCompactSummary user line after it are one compaction with the summary', () => {
    const text = jsonl(
      user('start'),
      { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', timestamp: '2026-01-02T11:00:00Z', compactMetadata: { trigger: 'auto' } },
      user('This session is being continued. Summary: the user wants tests.', { isCompactSummary: true }),
      user('go on'),
    );
    const { events } = importClaudeCode(text, FILE);
    expect(events.map((e) => e.type)).toEqual(['user_input', 'compaction', 'user_input']);
    expect(events[1]).toMatchObject({ type: 'compaction', summary: 'This session is being continued. Summary: the user wants tests.', source: { line: 2 } });
  });

  it('sidechain lines become subagent events bracketed by spawn and return', () => {
    const text = jsonl(
      user('explore'),
      assistant('msg_M', [{ type: 'tool_use', id: 'tu_task', name: 'Task', input: { prompt: 'look around' } }], usage(1, 0, 0, 1)),
      user('look around', { isSidechain: true, agentId: 'ag1' }),
      assistant('msg_S', [{ type: 'text', text: 'found it' }], usage(1, 0, 0, 1), { isSidechain: true, agentId: 'ag1' }),
      user([{ type: 'tool_result', tool_use_id: 'tu_task', content: 'found it' }]),
    );
    const { events } = importClaudeCode(text, FILE);
    expect(events.map((e) => [e.type, e.agentId ?? null])).toEqual([
      ['user_input', null],
      ['tool_call', null],
      ['usage', null],
      ['subagent_spawn', 'ag1'],
      ['user_input', 'ag1'],
      ['assistant_text', 'ag1'],
      ['usage', 'ag1'],
      ['subagent_return', 'ag1'],
      ['tool_result', null],
    ]);
  });

  it('synthetic assistant lines and bookkeeping lines are skipped and counted; unknown line types are counted, not fatal', () => {
    const text = jsonl(
      { type: 'file-history-snapshot', messageId: 'x', snapshot: {} },
      user([{ type: 'text', text: 'hello' }, { type: 'image', source: {} }]),
      { type: 'assistant', message: { id: 'syn', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 500' }], usage: usage(0, 0, 0, 0) } },
      { type: 'system', subtype: 'api_error', level: 'error' },
      { type: 'brand-new-line-type', whatever: true },
    );
    const { events, skipped, unknown } = importClaudeCode(text, FILE);
    expect(events).toMatchObject([{ type: 'user_input', text: 'hello\n[image]' }]);
    expect(skipped).toEqual({ 'file-history-snapshot': 1, 'assistant:<synthetic>': 1, 'system:api_error': 1 });
    expect(unknown).toEqual({ 'brand-new-line-type': 1 });
  });

  it('a malformed line is a TraceImportError naming the file and the 1-based line', () => {
    const text = `${JSON.stringify(user('ok'))}\n{"type":"assistant","message":{"id":"m1",,}}\n${JSON.stringify(user('later'))}\n`;
    const error = (() => {
      try {
        importClaudeCode(text, FILE);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TraceImportError);
    expect(error).toMatchObject({ file: FILE, line: 2, column: 42 });
    expect(String((error as Error).message)).toMatch(/^sessions\/made-up\.jsonl:2:42: line is not valid JSON: expected a double-quoted property name/);
  });

  it('a truncated last line is an error that says so', () => {
    const text = `${JSON.stringify(user('ok'))}\n${JSON.stringify(user('cut short')).slice(0, 30)}`;
    expect(() => importClaudeCode(text, FILE)).toThrow(/made-up\.jsonl:2:\d+: line is not valid JSON: .*truncated/);
  });

  it('a line of a known type without its message is an error at that line, not a crash', () => {
    expect(() => importClaudeCode(jsonl(user('ok'), { type: 'assistant', uuid: 'u' }), FILE)).toThrow(new TraceImportError(FILE, 2, 'assistant line has no message object'));
    expect(() => importClaudeCode(jsonl(user([{ type: 'tool_result', content: 'x' }])), FILE)).toThrow(/:1: tool_result block has no tool_use_id/);
  });
});
