import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../../engine/node/traces/importTraceFile';
import { importSweAgent } from '../../../../engine/traces/sweAgent';
import { TraceImportError, type TraceEvent } from '../../../../engine/traces/TraceEvent';

const FILE = 'runs/made-up.traj';
/** Pretty-printed like the files SWE-agent writes, so source lines are meaningful. */
const traj = (trajectory: object[], history: object[], info: object = {}): string => JSON.stringify({ trajectory, history, info }, null, 2);
/** The events without their sources, which are checked apart. */
const bare = (events: TraceEvent[]) => events.map(({ source: _source, ...e }) => e);
const fnCall = (id: string, name: string, args: object) => [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }];

/** A function-calling run: one requeried (blocked) call that never entered the history, and an id reused by hand. */
const functionCalling = traj(
  [
    { action: 'ls', observation: 'calc.py', response: 'Look first.', thought: 'Look first.', execution_time: 0.1, state: { working_dir: '/repo' }, query: [{ role: 'system', content: 'You are a programmer.' }] },
    { action: 'rm -rf /', observation: '', response: 'Delete all.', thought: 'Delete all.', execution_time: 0, state: {} },
    { action: 'open "calc.py"', observation: 'Traceback (most recent call last):', response: 'Open it.', thought: 'Open it.', execution_time: 0.2, state: {} },
    { action: 'submit', observation: 'diff --git a/calc.py b/calc.py', response: 'Done.', thought: 'Done.', execution_time: 0.1, state: {}, reasoning_content: 'private' },
  ],
  [
    { role: 'system', content: 'You are a programmer.', agent: 'main', message_type: 'system_prompt' },
    { role: 'user', content: 'Fix the bug in calc.py', agent: 'main', message_type: 'observation' },
    { role: 'assistant', content: 'Look first.', thought: 'Look first.', action: 'ls', agent: 'main', tool_calls: fnCall('call_a', 'bash', { command: 'ls' }), message_type: 'action' },
    { role: 'tool', content: 'calc.py', agent: 'main', message_type: 'observation', tool_call_ids: ['call_a'] },
    { role: 'assistant', content: 'Open it.', thought: 'Open it.', action: 'open "calc.py"', agent: 'main', tool_calls: fnCall('call_b', 'open', { path: 'calc.py' }), message_type: 'action' },
    { role: 'tool', content: 'Traceback (most recent call last):', agent: 'main', message_type: 'observation', tool_call_ids: ['call_b'] },
    { role: 'assistant', content: 'Done.', thought: 'Done.', action: 'submit', agent: 'main', tool_calls: fnCall('call_a', 'submit', {}), message_type: 'action' },
    { role: 'tool', content: 'diff --git a/calc.py b/calc.py', agent: 'main', message_type: 'observation', tool_call_ids: ['call_a'] },
  ],
  { exit_status: 'submitted', model_stats: { instance_cost: 0.5, tokens_sent: 1200, tokens_received: 80, api_calls: 4 } },
);

describe('swe-agent-traj importer', () => {
  it('[trace-swe-agent] a function-calling run: one step per trajectory entry, recorded calls from history, a requeried call synthesized, a reused id made unique', () => {
    const { format, events, skipped, unknown } = importSweAgent(functionCalling, FILE);
    expect(format).toBe('swe-agent-traj');
    expect(bare(events)).toEqual([
      { type: 'instructions', role: 'system', text: 'You are a programmer.' },
      { type: 'user_input', text: 'Fix the bug in calc.py' },
      { type: 'assistant_text', text: 'Look first.', step: 0 },
      { type: 'tool_call', callId: 'call_a', name: 'bash', arguments: '{"command":"ls"}', step: 0 },
      { type: 'tool_result', callId: 'call_a', content: 'calc.py', isError: false },
      { type: 'assistant_text', text: 'Delete all.', step: 1 },
      { type: 'tool_call', callId: 'step-1', name: 'rm', arguments: '{"input":"rm -rf /"}', step: 1 },
      { type: 'tool_result', callId: 'step-1', content: '', isError: false },
      { type: 'assistant_text', text: 'Open it.', step: 2 },
      { type: 'tool_call', callId: 'call_b', name: 'open', arguments: '{"path":"calc.py"}', step: 2 },
      { type: 'tool_result', callId: 'call_b', content: 'Traceback (most recent call last):', isError: false },
      { type: 'assistant_text', text: 'Done.', step: 3 },
      { type: 'tool_call', callId: 'call_a@step-3', name: 'submit', arguments: '{}', step: 3 },
      { type: 'tool_result', callId: 'call_a@step-3', content: 'diff --git a/calc.py b/calc.py', isError: false },
    ]);
    expect(skipped).toEqual({ 'history:assistant': 3, 'history:tool': 3, reasoning_content: 1, 'info.model_stats': 1 });
    expect(unknown).toEqual({});
  });

  it('[trace-swe-agent] a thought/action run: calls named by the command, the whole action as input, no call for unparsable output; block content and other agents read as such', () => {
    const text = traj(
      [
        { action: 'ls -a\n', observation: 'main.py', response: 'I will list.\n```\nls -a\n```', thought: 'I will list.\n', state: '{"open_file": "n/a"}' },
        { action: '', observation: '', response: 'Hmm.', thought: 'Hmm.', state: '{}' },
        { action: 'python main.py\n', observation: 'ok', response: 'Run it.\n```\npython main.py\n```', thought: 'Run it.\n', state: '{}' },
        { action: 'submit\n', observation: '', response: '```\nsubmit\n```', thought: '', state: '{}' },
      ],
      [
        { role: 'system', content: 'SETTING: a shell.', agent: 'primary' },
        { role: 'user', content: [{ type: 'text', text: 'Fix main.py' }, { type: 'image_url', image_url: { url: 'data:' } }], agent: 'primary' },
        { role: 'user', content: 'summarise this', agent: 'summarizer' },
        { role: 'assistant', content: 'I will list.\n```\nls -a\n```', thought: 'I will list.\n', action: 'ls -a\n', agent: 'primary' },
        { role: 'user', content: 'main.py\n(Open file: n/a)', agent: 'primary' },
        { role: 'assistant', content: 'Run it.\n```\npython main.py\n```', thought: 'Run it.\n', action: 'python main.py\n', agent: 'primary' },
        { role: 'user', content: 'ok\n(Open file: n/a)', agent: 'primary' },
        { role: 'assistant', content: '```\nsubmit\n```', thought: '', action: 'submit\n', agent: 'primary' },
      ],
    );
    const { events, skipped } = importSweAgent(text, FILE);
    expect(bare(events)).toEqual([
      { type: 'instructions', role: 'system', text: 'SETTING: a shell.' },
      { type: 'user_input', text: 'Fix main.py\n[image]' },
      { type: 'assistant_text', text: 'I will list.\n', step: 0 },
      { type: 'tool_call', callId: 'step-0', name: 'ls', arguments: '{"input":"ls -a\\n"}', step: 0 },
      { type: 'tool_result', callId: 'step-0', content: 'main.py', isError: false },
      { type: 'assistant_text', text: 'Hmm.', step: 1 },
      { type: 'assistant_text', text: 'Run it.\n', step: 2 },
      { type: 'tool_call', callId: 'step-2', name: 'python', arguments: '{"input":"python main.py\\n"}', step: 2 },
      { type: 'tool_result', callId: 'step-2', content: 'ok', isError: false },
      { type: 'tool_call', callId: 'step-3', name: 'submit', arguments: '{"input":"submit\\n"}', step: 3 },
      { type: 'tool_result', callId: 'step-3', content: '', isError: false },
    ]);
    expect(skipped).toEqual({ 'history:other agent': 1, 'history:assistant': 3, 'history:user': 2 });
  });

  it('[trace-swe-agent] every event names the line and path of its history message or trajectory entry', () => {
    const { events } = importSweAgent(functionCalling, FILE);
    const lines = functionCalling.split('\n');
    for (const e of events) expect(lines[e.source.line - 1]?.trim()).toBe('{');
    expect(events.map((e) => e.source.path)).toEqual(['history[0]', 'history[1]', ...[0, 1, 2, 3].flatMap((i) => Array(3).fill(`trajectory[${i}]`))]);
    const step0 = events[2]?.source.line ?? 0;
    expect(lines.slice(step0, step0 + 2).join('')).toContain('"action": "ls"');
  });

  it('[trace-swe-agent-demos] demonstration messages become instructions, never steps or calls, even when they repeat the run\'s own action', () => {
    const text = traj(
      [{ action: 'ls', observation: 'a.py', response: 'List.', thought: 'List.' }],
      [
        { role: 'system', content: 'You are a programmer.', agent: 'main', message_type: 'system_prompt' },
        { role: 'user', content: 'Demo task: fix b.py', agent: 'main', is_demo: true },
        { role: 'assistant', content: 'Demo: list.', action: 'ls', agent: 'main', is_demo: true, tool_calls: fnCall('demo_1', 'bash', { command: 'ls' }) },
        { role: 'tool', content: 'b.py', agent: 'main', is_demo: true, tool_call_ids: ['demo_1'] },
        { role: 'user', content: 'Here is a demonstration: ...', agent: 'main', is_demo: true, message_type: 'demonstration' },
        { role: 'user', content: 'Fix a.py', agent: 'main', message_type: 'observation' },
        { role: 'assistant', content: 'List.', action: 'ls', agent: 'main', tool_calls: fnCall('call_real', 'bash', { command: 'ls' }) },
        { role: 'tool', content: 'a.py', agent: 'main', tool_call_ids: ['call_real'] },
      ],
    );
    const { events } = importSweAgent(text, FILE);
    expect(bare(events)).toEqual([
      { type: 'instructions', role: 'system', text: 'You are a programmer.' },
      { type: 'instructions', role: 'system', text: 'Demo task: fix b.py' },
      { type: 'instructions', role: 'system', text: 'Demo: list.' },
      { type: 'instructions', role: 'system', text: 'b.py' },
      { type: 'instructions', role: 'system', text: 'Here is a demonstration: ...' },
      { type: 'user_input', text: 'Fix a.py' },
      { type: 'assistant_text', text: 'List.', step: 0 },
      { type: 'tool_call', callId: 'call_real', name: 'bash', arguments: '{"command":"ls"}', step: 0 },
      { type: 'tool_result', callId: 'call_real', content: 'a.py', isError: false },
    ]);
  });

  it('[trace-swe-agent-unrecorded] no times, no error flags and no usage: model_stats totals are counted as skipped, not spread over calls', () => {
    const { events, skipped } = importSweAgent(functionCalling, FILE);
    expect(events.filter((e) => e.at !== undefined)).toEqual([]);
    expect(events.filter((e) => e.type === 'usage')).toEqual([]);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.isError)).toEqual([false, false, false, false]);
    expect(skipped['info.model_stats']).toBe(1);
  });

  it('[trace-swe-agent-errors] a truncated file is a TraceImportError naming the file, line and column where it ends', () => {
    const cut = functionCalling.slice(0, functionCalling.indexOf('Open it.') + 4);
    const lastLine = cut.split('\n').length;
    let error: unknown;
    try {
      importSweAgent(cut, FILE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TraceImportError);
    expect(error).toMatchObject({ file: FILE, line: lastLine });
    expect((error as Error).message).toMatch(new RegExp(`^runs/made-up\\.traj:${lastLine}:\\d+: not valid JSON: unterminated string \\(the file may be truncated\\)$`));
    const bad = '{\n  "trajectory": [\n    {"action": "ls", "observation": "x"}\n    {"action": "pwd"}\n  ]\n}';
    expect(() => importSweAgent(bad, FILE)).toThrow(new TraceImportError(FILE, 4, "not valid JSON: expected ',' or ']'", 5));
  });

  it('[trace-swe-agent-errors] a document of another shape, or a step or message missing what it needs, is refused with its line and path', () => {
    expect(() => importSweAgent('{"messages": []}', FILE)).toThrow(/^runs\/made-up\.traj:1: expected a JSON object with a "trajectory" array/);
    expect(() => importSweAgent('{"trajectory": {}}', FILE)).toThrow(/^runs\/made-up\.traj:1: expected a JSON object with a "trajectory" array/);
    expect(() => importSweAgent('{"trajectory": [], "history": {}}', FILE)).toThrow(new TraceImportError(FILE, 1, '"history" is not an array of messages'));
    const noAction = traj([{ action: 'ls', observation: 'a' }, { observation: 'b', thought: 'no action' }], []);
    expect(() => importSweAgent(noAction, FILE)).toThrow(new TraceImportError(FILE, 7, 'trajectory[1] has no string "action"'));
    expect(() => importSweAgent(traj([{ action: 'ls' }], []), FILE)).toThrow(new TraceImportError(FILE, 3, 'trajectory[0] has no string "observation"'));
    expect(() => importSweAgent(traj([], [{ content: 'no role' }]), FILE)).toThrow(new TraceImportError(FILE, 4, 'history[0] is not a message with a string role'));
    const noId = traj([], [{ role: 'assistant', content: 'x', action: 'ls', tool_calls: [{ type: 'function', function: { name: 'bash', arguments: '{}' } }] }]);
    expect(() => importSweAgent(noId, FILE)).toThrow(new TraceImportError(FILE, 4, 'history[0] tool_calls[0] has no call id'));
    expect(() => importSweAgent('  ', FILE)).toThrow(new TraceImportError(FILE, 1, 'the file is empty'));
  });
});

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const tracesDir = process.env.STRATA_TRACES_DIR ?? path.resolve(repoRoot, '../shared/traces');
const sweDir = path.join(tracesDir, 'swe-agent-traj');
const available = existsSync(sweDir);
/** Steps and tool calls of the shared SWE-agent files, as SOURCES.md states them. */
const SHARED = [
  { file: 'i_got_id_demo.traj', steps: 21, calls: 21 },
  { file: 'marshmallow-code__marshmallow-1867.traj', steps: 13, calls: 13 },
];

describe('swe-agent-traj importer on the shared traces (read in place)', () => {
  if (!available) console.warn(`sweAgent: SKIPPED the shared-trace checks, ${sweDir} does not exist (set STRATA_TRACES_DIR to run them)`);

  for (const { file, steps, calls } of SHARED) {
    it.skipIf(!available)(`[trace-swe-agent] [trace-detect] ${file}: ${steps} steps and ${calls} tool calls, each answered once`, () => {
      const imported = importTraceFile(path.join(sweDir, file));
      expect(imported.format).toBe('swe-agent-traj');
      const { events } = imported;
      expect(new Set(events.flatMap((e) => (e.step === undefined ? [] : [e.step]))).size).toBe(steps);
      const callIds = events.flatMap((e) => (e.type === 'tool_call' ? [e.callId] : []));
      expect(callIds).toHaveLength(calls);
      expect(new Set(callIds).size).toBe(calls);
      expect(events.flatMap((e) => (e.type === 'tool_result' ? [e.callId] : []))).toEqual(callIds);
      expect(events.filter((e) => e.type === 'user_input')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'usage')).toEqual([]);
    });
  }
});
