import { describe, expect, it } from 'vitest';
import { importOpenCode } from '../../../../engine/traces/openCode';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

/** A made-up session in the shape `opencode export` prints (opencode-ai 1.18). */
const FILE = 'ses_made_up.json';
const T0 = 1_780_000_000_000;
let n = 0;
const part = (type: string, extra: object = {}) => ({ type, ...extra, id: `prt_${String(n++).padStart(3, '0')}`, sessionID: 'ses_1', messageID: 'msg' });
const tokens = (input: number, read: number, write: number, output: number, reasoning = 0) => ({ total: input + read + write + output + reasoning, input, output, reasoning, cache: { read, write } });
const user = (id: string, parts: object[], t = 0) => ({ info: { role: 'user', time: { created: T0 + t }, agent: 'build', model: { providerID: 'p', modelID: 'm' }, id, sessionID: 'ses_1' }, parts });
const assistant = (id: string, parts: object[], extra: object = {}, t = 1000) => ({
  info: { parentID: 'msg_u', role: 'assistant', mode: 'build', agent: 'build', cost: 0, tokens: tokens(0, 0, 0, 0), modelID: 'model-made-up', providerID: 'p', time: { created: T0 + t }, id, sessionID: 'ses_1', ...extra },
  parts,
});
const doc = (...messages: object[]) => JSON.stringify({ info: { id: 'ses_1', title: 'made up', version: '1.18.33', time: { created: T0, updated: T0 + 9000 } }, messages }, null, 2);
const tool = (callID: string, name: string, state: object) => part('tool', { tool: name, callID, state });
const shape = (events: TraceEvent[]) => events.map((e) => [e.type, e.step ?? null]);

describe('opencode importer', () => {
  it('[trace-opencode] each step-start … step-finish run is one LLM call with its usage; tool parts are a call and its result', () => {
    const text = doc(
      user('msg_u', [part('text', { text: 'read notes.txt' })]),
      assistant('msg_a1', [
        part('step-start'),
        part('reasoning', { text: 'hmm', time: { start: T0 + 1100 } }),
        part('text', { text: 'Reading it.', time: { start: T0 + 1200 } }),
        tool('call_1', 'read', { status: 'completed', input: { filePath: 'notes.txt' }, output: 'hello', title: 'notes.txt', metadata: {}, time: { start: T0 + 1300, end: T0 + 1400 } }),
        part('step-finish', { reason: 'tool-calls', tokens: tokens(502, 1500, 0, 20, 10), cost: 0 }),
        // an older session may hold a second call in the same message
        part('step-start'),
        tool('call_2', 'bash', { status: 'error', input: { command: 'false' }, error: 'exit 1', time: { start: T0 + 1500, end: T0 + 1600 } }),
        part('step-finish', { reason: 'tool-calls', tokens: tokens(10, 2000, 30, 5), cost: 0 }),
      ]),
      assistant('msg_a2', [part('step-start'), part('text', { text: 'It says hello.' }), part('step-finish', { reason: 'stop', tokens: tokens(5, 2100, 0, 4), cost: 0 })], {}, 2000),
    );
    const { events, format, skipped } = importOpenCode(text, FILE);
    expect(format).toBe('opencode-export-json');
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['tool_call', 0],
      ['tool_result', null],
      ['usage', 0],
      ['tool_call', 1],
      ['tool_result', null],
      ['usage', 1],
      ['assistant_text', 2],
      ['usage', 2],
    ]);
    expect(events[2]).toMatchObject({ callId: 'call_1', name: 'read', arguments: '{"filePath":"notes.txt"}', at: new Date(T0 + 1300).toISOString(), source: { file: FILE, path: 'messages[1].parts[3]' } });
    expect(events[3]).toMatchObject({ type: 'tool_result', callId: 'call_1', content: 'hello', isError: false });
    expect(events[6]).toMatchObject({ type: 'tool_result', callId: 'call_2', content: 'exit 1', isError: true });
    // input is uncached already; output gains the reasoning tokens OpenCode keeps apart
    expect(events[4]).toMatchObject({ type: 'usage', input: 502, cacheRead: 1500, cacheWrite: 0, output: 30, model: 'model-made-up' });
    expect(events[7]).toMatchObject({ input: 10, cacheRead: 2000, cacheWrite: 30, output: 5 });
    expect(skipped['part:reasoning']).toBe(1);
    expect(text.split('\n')[(events[1]?.source.line ?? 0) - 1]).toMatch(/^ {4}\{$/);
  });

  it('[trace-opencode] a summary message answering a compaction is one compaction event carrying its text after its usage; the request part is skipped', () => {
    const text = doc(
      user('msg_u', [part('text', { text: 'go' })]),
      assistant('msg_a1', [part('step-start'), part('text', { text: 'done' }), part('step-finish', { reason: 'stop', tokens: tokens(1, 2, 3, 4), cost: 0 })]),
      user('msg_c', [part('compaction', { auto: true })], 3000),
      assistant('msg_s', [part('step-start'), part('text', { text: 'Summary: we did it.' }), part('step-finish', { reason: 'stop', tokens: tokens(9, 0, 0, 7), cost: 0 })], { summary: true }, 4000),
    );
    const { events, skipped } = importOpenCode(text, FILE);
    expect(shape(events)).toEqual([
      ['user_input', null],
      ['assistant_text', 0],
      ['usage', 0],
      ['usage', 1],
      ['compaction', null],
    ]);
    expect(events[4]).toMatchObject({ type: 'compaction', summary: 'Summary: we did it.' });
    expect(skipped['part:compaction']).toBe(1);
  });

  it('[trace-opencode] ignored text and a call still running are not invented into input or results', () => {
    const text = doc(
      user('msg_u', [part('text', { text: 'visible' }), part('text', { text: 'hidden', ignored: true }), part('file', { mime: 'image/png', filename: 'shot.png', url: 'data:' })]),
      assistant('msg_a1', [part('step-start'), tool('call_1', 'bash', { status: 'running', input: { command: 'sleep 9' }, time: { start: T0 } })]),
    );
    const { events, skipped } = importOpenCode(text, FILE);
    expect(events.filter((e) => e.type === 'user_input')).toMatchObject([{ text: 'visible\n[file: shot.png]' }]);
    expect(events.filter((e) => e.type === 'tool_result')).toEqual([]);
    expect(skipped['tool without result (running)']).toBe(1);
  });

  it('[trace-opencode] a malformed document names the file and line; a message without parts and a tool part without callID name their place', () => {
    const text = doc(user('msg_u', [part('text', { text: 'go' })]));
    expect(() => importOpenCode(text.slice(0, text.indexOf('"go"') + 3), FILE)).toThrow(/^ses_made_up\.json:\d+:\d+: not valid JSON/);
    const noParts = JSON.stringify({ info: {}, messages: [{ info: { role: 'user' } }] }, null, 2);
    expect(() => importOpenCode(noParts, FILE)).toThrow(`${FILE}:4: messages[0] is not a message with an info object and a parts array`);
    const noCall = doc(assistant('msg_a', [part('tool', { tool: 'read', state: {} })]));
    expect(() => importOpenCode(noCall, FILE)).toThrow(TraceImportError);
    expect(() => importOpenCode(noCall, FILE)).toThrow('messages[0].parts[0] is a tool part without a callID');
  });
});
