import { describe, expect, it } from 'vitest';
import { importCodexRollout } from '../../../../engine/traces/codexRollout';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

const FILE = 'rollout-made-up.jsonl';
let clock = 0;
/** One rollout line: `{timestamp, type, payload}` with a made-up, increasing time. */
const line = (type: string, payload: object) => ({ timestamp: new Date(Date.UTC(2026, 0, 3, 9, 0, clock++)).toISOString(), type, payload });
const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

const item = (payload: object) => line('response_item', payload);
const userMsg = (text: string) => item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const assistantMsg = (text: string) => item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], phase: 'commentary' });
const call = (id: string, cmd: string) => item({ type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: cmd }), call_id: id });
const output = (id: string, text: string) => item({ type: 'function_call_output', call_id: id, output: text });
/** A token_count event: Codex records the running total and the last call, cached tokens INSIDE input_tokens. */
const tokens = (total: [number, number, number], last: [number, number, number] | null) =>
  line('event_msg', {
    type: 'token_count',
    info: last && {
      total_token_usage: { input_tokens: total[0], cached_input_tokens: total[1], output_tokens: total[2], total_tokens: total[0] + total[2] },
      last_token_usage: { input_tokens: last[0], cached_input_tokens: last[1], output_tokens: last[2], total_tokens: last[0] + last[2] },
    },
    rate_limits: {},
  });

const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('codex-rollout-jsonl importer', () => {
  it('token_count totals are cumulative: each usage is the last call, uncached input, repeats of the same total are no new call', () => {
    const text = jsonl(
      line('session_meta', { id: 's', cwd: '/w', base_instructions: { text: 'You are Codex.' } }),
      line('turn_context', { model: 'gpt-made-up' }),
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>' }] }),
      userMsg('fix the bug'),
      tokens([0, 0, 0], null),
      item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAA' }),
      assistantMsg('Looking first.'),
      call('c1', 'ls'),
      call('c2', 'git status'),
      tokens([1000, 600, 50], [1000, 600, 50]),
      line('event_msg', { type: 'exec_command_end', call_id: 'c1' }),
      output('c1', 'a.ts'),
      output('c2', 'clean'),
      call('c3', 'cat a.ts'),
      tokens([2300, 1500, 90], [1300, 900, 40]),
      tokens([2300, 1500, 90], [1300, 900, 40]),
      output('c3', 'export {}'),
      assistantMsg('Done.'),
      tokens([3700, 2700, 100], [1400, 1200, 10]),
    );
    const { events, skipped } = importCodexRollout(text, FILE);
    expect(shape(events)).toEqual([
      ['instructions', null],
      ['instructions', null],
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['tool_call', 0],
      ['usage', 0],
      ['tool_result', null],
      ['tool_result', null],
      ['tool_call', 1],
      ['usage', 1],
      ['tool_result', null],
      ['assistant_text', 2],
      ['usage', 2],
    ]);
    const usages = events.filter((e) => e.type === 'usage');
    expect(usages.map((u) => [u.input, u.cacheRead, u.cacheWrite, u.output, u.model])).toEqual([
      [400, 600, 0, 50, 'gpt-made-up'],
      [400, 900, 0, 40, 'gpt-made-up'],
      [200, 1200, 0, 10, 'gpt-made-up'],
    ]);
    expect(events[0]).toMatchObject({ type: 'instructions', role: 'system', text: 'You are Codex.' });
    expect(skipped).toMatchObject({ 'response_item:reasoning': 1, 'event_msg:exec_command_end': 1, 'event_msg:token_count (no new call)': 2 });
  });

  it('free-form tool calls get JSON arguments; object outputs and success:false are read', () => {
    const text = jsonl(
      userMsg('patch it'),
      item({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', call_id: 'p1', status: 'completed' }),
      item({ type: 'custom_tool_call_output', call_id: 'p1', output: '{"output":"Success."}' }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'c9' }),
      item({ type: 'function_call_output', call_id: 'c9', output: { content: 'exit 1', success: false } }),
    );
    const { events } = importCodexRollout(text, FILE);
    expect(events[1]).toMatchObject({ type: 'tool_call', callId: 'p1', name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }) });
    expect(JSON.parse((events[1] as { arguments: string }).arguments)).toEqual({ input: '*** Begin Patch\n*** End Patch' });
    expect(events[2]).toMatchObject({ type: 'tool_result', callId: 'p1', content: '{"output":"Success."}', isError: false });
    expect(events[4]).toMatchObject({ type: 'tool_result', callId: 'c9', content: 'exit 1', isError: true });
  });

  it('a compacted line is one compaction event with its summary; its replacement history is not replayed', () => {
    const text = jsonl(
      userMsg('first'),
      line('compacted', { message: 'The user asked for X; done.', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] }] }),
      userMsg('second'),
    );
    const { events } = importCodexRollout(text, FILE);
    expect(events.map((e) => e.type)).toEqual(['user_input', 'compaction', 'user_input']);
    expect(events[1]).toMatchObject({ summary: 'The user asked for X; done.', source: { file: FILE, line: 2 } });
  });

  it('unknown line and item types are counted and skipped', () => {
    const text = jsonl(userMsg('hi'), line('future_kind', { x: 1 }), item({ type: 'future_item' }));
    const { events, unknown } = importCodexRollout(text, FILE);
    expect(events).toHaveLength(1);
    expect(unknown).toEqual({ future_kind: 1, 'response_item:future_item': 1 });
  });

  it('a malformed line and a line without its payload are TraceImportErrors at their line', () => {
    const good = JSON.stringify(userMsg('ok'));
    expect(() => importCodexRollout(`${good}\n${good}\n{"type":"response_item","payload":{"type":"message"\n`, FILE)).toThrow(/^rollout-made-up\.jsonl:3:\d+: line is not valid JSON/);
    expect(() => importCodexRollout(`${good}\n{"type":"response_item"}\n`, FILE)).toThrow(new TraceImportError(FILE, 2, 'response_item line has no payload object'));
    expect(() => importCodexRollout(`${good}\n[1,2]\n`, FILE)).toThrow(new TraceImportError(FILE, 2, 'line is a JSON array, not an object'));
    expect(() => importCodexRollout(jsonl(item({ type: 'function_call', name: 'shell', arguments: '{}' })), FILE)).toThrow(/:1: function_call item has no call_id/);
  });
});

describe('codex-rollout-jsonl importer, 0.17x rollouts (token_usage_record)', () => {
  const record = (id: string, input: number, cached: number, out: number) =>
    line('token_usage_record', { response_id: id, usage: { input_tokens: input, cached_input_tokens: cached, cache_write_input_tokens: 0, output_tokens: out, reasoning_output_tokens: 1, total_tokens: input + out } });
  const ctx = (text: string) => userMsg(text);

  it('[trace-codex-usage-record] one step per token_usage_record, wherever token_count falls (it now follows the tool outputs)', () => {
    const text = jsonl(
      line('turn_context', { model: 'gpt-5.5' }),
      userMsg('list the files'),
      assistantMsg('Let me look.'),
      call('c1', 'ls'),
      record('resp_0', 3000, 2048, 30),
      output('c1', 'a.txt'),
      tokens([3000, 2048, 30], [3000, 2048, 30]),
      call('c2', 'cat a.txt'),
      call('c3', 'cat b.txt'),
      record('resp_1', 3500, 3000, 20),
      output('c2', 'hello'),
      output('c3', 'world'),
      tokens([6500, 5048, 50], [3500, 3000, 20]),
      line('world_state', { full: true, state: {} }),
      assistantMsg('Done.'),
      record('resp_2', 3600, 3456, 5),
      tokens([10100, 8504, 55], [3600, 3456, 5]),
    );
    const { events, unknown } = importCodexRollout(text, FILE);
    expect(unknown).toEqual({});
    const usages = events.filter((e) => e.type === 'usage');
    expect(usages.map((u) => [u.step, u.type === 'usage' && u.input, u.type === 'usage' && u.cacheRead])).toEqual([
      [0, 952, 2048],
      [1, 500, 3000],
      [2, 144, 3456],
    ]);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.step)).toEqual([0, 1, 1]);
  });

  it('[trace-codex-usage-record] the compacted line names the compaction call and its request; its replacement history is kept whole', () => {
    const text = jsonl(
      line('session_meta', { base_instructions: { text: 'You are Codex.' } }),
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<skills>…</skills>' }] }),
      userMsg('list the files'),
      call('c1', 'ls'),
      record('resp_0', 3000, 0, 30),
      output('c1', 'a.txt'),
      record('resp_1', 3100, 2048, 40),
      line('compacted', {
        message: 'Summary: listed files.',
        compaction_response_id: 'resp_1',
        replacement_history: [
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<skills>…</skills>' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary: listed files.' }] },
        ],
      }),
      assistantMsg('Done.'),
      record('resp_2', 900, 0, 5),
    );
    const events = importCodexRollout(text, FILE).events;
    expect(events.filter((e) => e.type === 'usage').map((u) => [u.step, u.type === 'usage' ? (u.call ?? 'response') : ''])).toEqual([
      [0, 'response'],
      [1, 'compaction'],
      [2, 'response'],
    ]);
    expect(events.find((e) => e.type === 'usage' && e.call === 'compaction')).toMatchObject({ compactionRequest: { toolsSent: false, instructionTokens: 89 } });
    expect(events.find((e) => e.type === 'compaction')).toMatchObject({
      summary: 'Summary: listed files.',
      history: [
        { role: 'developer', text: '<skills>…</skills>' },
        { role: 'user', text: 'list the files' },
        { role: 'user', text: 'Summary: listed files.' },
      ],
    });
  });

  it('[trace-codex-context] environment context and AGENTS.md messages are context, so the first user input is the real task', () => {
    const text = jsonl(ctx('<environment_context>\n  <cwd>/w</cwd>\n</environment_context>'), ctx('# AGENTS.md instructions for /w\n\nBe nice.'), userMsg('fix the bug'), assistantMsg('ok'), record('r', 10, 0, 1));
    const events = importCodexRollout(text, FILE).events;
    expect(events.slice(0, 3).map((e) => [e.type, e.type === 'context' ? e.kind : e.type === 'user_input' ? e.text : ''])).toEqual([
      ['context', 'environment_context'],
      ['context', 'agents_md'],
      ['user_input', 'fix the bug'],
    ]);
  });
});
