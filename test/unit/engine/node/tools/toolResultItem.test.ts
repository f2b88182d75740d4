import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../../../engine/conversation/Message';
import type { ItemInput } from '../../../../../engine/items/createItem';
import { locationsIn, signatureOf, toolResultItem } from '../../../../../engine/node/tools/toolResultItem';
import type { RunCommandMeta, ToolErrorCode, ToolResult } from '../../../../../engine/node/tools/types';
import { newEngine } from '../../../../support/engineFixtures';

const ctx = { agentId: 'worker-1', taskId: 'task-auth', at: 1_700_000_000_000 };
const call = (name: string, args: object, id = 'call_1'): ToolCall => ({ id, name, arguments: JSON.stringify(args) });

function mapped(c: ToolCall, r: ToolResult, extra: Partial<typeof ctx & { phase: string; workspaceRoot: string }> = {}): ItemInput {
  const input = toolResultItem(c, r, { ...ctx, ...extra });
  if (input === null) throw new Error('expected an item');
  return input;
}

const runMeta = (over: Partial<RunCommandMeta>): RunCommandMeta => ({
  tool: 'run_command',
  command: 'npm test',
  argv: ['npm', 'test'],
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 1200,
  outputBytes: 100,
  truncated: false,
  testCommand: true,
  ...over,
});

const FAILING_OUTPUT = [
  '$ npm test',
  ' FAIL  test/auth/refresh.test.ts > rotateToken > appends a bang',
  'AssertionError: expected "a" to be "a!"',
  ' ❯ test/auth/refresh.test.ts:12:20',
  '    at rotateToken (/work/ws/src/auth/refresh.ts:2:10)',
  '    at node:internal/process/task_queues:95:5',
  '    at Object.<anonymous> (/work/ws/node_modules/vitest/dist/index.js:10:3)',
  "src/auth/store.ts(4,7): error TS2322: Type 'number' is not assignable to type 'string'.",
  'see http://localhost:3000 and example.com:80',
  '[exit code 1]',
].join('\n');

describe('toolResultItem', () => {
  it('[tools] list_files → ephemeral tool_output from repository_source, transient', () => {
    const c = call('list_files', { path: 'src', depth: 2 });
    const input = mapped(c, { content: 'src/a.ts\nsrc/b/', isError: false, meta: { tool: 'list_files', path: 'src', depth: 2, entries: 2, truncated: false } });
    expect(input).toEqual<ItemInput>({
      id: 'tool:call_1',
      kind: 'tool_output',
      class: 'ephemeral',
      title: 'list_files src (2 entries)',
      content: 'src/a.ts\nsrc/b/',
      source: 'repository_source',
      agentId: 'worker-1',
      taskId: 'task-auth',
      at: ctx.at,
      confidence: 0.9,
      relevance: 0.3,
      durability: 'transient',
      files: ['src'],
      signature: 'list_files {"depth":2,"path":"src"}',
    });
  });

  it('[tools] grep → ephemeral tool_output with the hit files, and the pattern as a symbol when it is an identifier', () => {
    const c = call('grep', { pattern: 'rotateToken' });
    const input = mapped(c, {
      content: 'a.ts:1: rotateToken\nsrc/b.ts:3: rotateToken\na.ts:9: rotateToken',
      isError: false,
      meta: { tool: 'grep', pattern: 'rotateToken', fixed: false, path: '.', hits: [{ file: 'a.ts', line: 1 }, { file: 'src/b.ts', line: 3 }, { file: 'a.ts', line: 9 }], filesSearched: 4, truncated: false },
    });
    expect(input).toMatchObject({ kind: 'tool_output', class: 'ephemeral', source: 'repository_source', durability: 'transient', files: ['a.ts', 'src/b.ts'], symbols: ['rotateToken'], title: 'grep "rotateToken" (3 matches)' });
    const regex = mapped(call('grep', { pattern: 'rotate.*Token' }), {
      content: 'x',
      isError: false,
      meta: { tool: 'grep', pattern: 'rotate.*Token', fixed: false, path: '.', hits: [], filesSearched: 1, truncated: false },
    });
    expect(regex.symbols).toEqual([]);
  });

  it('[tools] read_file → ephemeral code from repository_source with files=[path] and the declared names', () => {
    const content = ['File: src/auth/refresh.ts, lines 1-4 of 4', '1| export async function rotateToken() {}', '2| class TokenStore {}', '3|   const inner = 1;', '4| export interface Options {}'].join('\n');
    const input = mapped(call('read_file', { path: 'src/auth/refresh.ts' }), {
      content,
      isError: false,
      meta: { tool: 'read_file', path: 'src/auth/refresh.ts', startLine: 1, endLine: 4, totalLines: 4, bytes: 90, truncated: false },
    });
    expect(input).toMatchObject({ kind: 'code', class: 'ephemeral', source: 'repository_source', durability: 'transient', files: ['src/auth/refresh.ts'], title: 'src/auth/refresh.ts:1-4' });
    expect(input.symbols).toEqual(['rotateToken', 'TokenStore', 'inner', 'Options']);
  });

  it('[tools] a failing test command → task_state failure from test_result, with file:line locations', () => {
    const input = mapped(call('run_command', { command: 'npm test' }), { content: FAILING_OUTPUT, isError: true, meta: runMeta({ exitCode: 1 }) }, { workspaceRoot: '/work/ws' });
    expect(input).toMatchObject({ kind: 'failure', class: 'task_state', source: 'test_result', durability: 'task', relevance: 0.8, title: 'Test failure: npm test (exit 1)' });
    expect(input.files).toEqual(['test/auth/refresh.test.ts', 'src/auth/refresh.ts', 'src/auth/store.ts']);
    expect(input.symbols).toEqual(['test/auth/refresh.test.ts:12', 'src/auth/refresh.ts:2', 'src/auth/store.ts:4']);
  });

  it('[tools] a timed-out test command is a failure too', () => {
    const input = mapped(call('run_command', { command: 'npm test' }), { content: '$ npm test\n[timed out]', isError: true, meta: runMeta({ exitCode: null, signal: 'SIGTERM', timedOut: true }) });
    expect(input).toMatchObject({ kind: 'failure', class: 'task_state', title: 'Test failure: npm test (timed out)' });
  });

  it('[tools] a passing test command → ephemeral tool_output from test_result', () => {
    const input = mapped(call('run_command', { command: 'npm test' }), { content: '$ npm test\nok\n[exit code 0]', isError: false, meta: runMeta({}) });
    expect(input).toMatchObject({ kind: 'tool_output', class: 'ephemeral', source: 'test_result', durability: 'transient', title: 'Tests passed: npm test (exit 0)' });
  });

  it('[tools] any other command → ephemeral tool_output, failing or not', () => {
    const meta = runMeta({ command: 'npx tsc --noEmit', argv: ['npx', 'tsc', '--noEmit'], exitCode: 2, testCommand: false });
    const input = mapped(call('run_command', { command: 'npx tsc --noEmit' }), { content: "$ npx tsc --noEmit\nsrc/a.ts(3,1): error TS1\n[exit code 2]", isError: true, meta });
    expect(input).toMatchObject({ kind: 'tool_output', class: 'ephemeral', source: 'repository_source', durability: 'transient', files: ['src/a.ts'], symbols: ['src/a.ts:3'] });
  });

  it.each<ToolErrorCode>(['malformed_json', 'unknown_tool', 'invalid_arguments', 'invalid_pattern', 'outside_workspace', 'not_allowed'])(
    '[tools] a call refused before it ran (%s) maps to no item',
    (error) => {
      expect(toolResultItem(call('read_file', { path: '../x' }), { content: 'Refused', isError: true, meta: { tool: 'read_file', error } }, ctx)).toBeNull();
    },
  );

  it('[evidence-regular] a call that ran and failed maps to ephemeral tool_output that names the path in its text and no files', () => {
    const input = mapped(call('read_file', { path: 'src/gone.ts' }), { content: 'No such file: "src/gone.ts".', isError: true, meta: { tool: 'read_file', error: 'not_found', path: './src/gone.ts' } });
    expect(input).toMatchObject({ kind: 'tool_output', class: 'ephemeral', source: 'repository_source', title: 'read_file failed (not found)', content: expect.stringContaining('src/gone.ts') });
    // What a failed call names is not a file it read: it is never evidence of a memory entry.
    expect(input.files).toEqual([]);
    const fifo = mapped(call('read_file', { path: 'pipe' }), { content: '"pipe" is not a regular file.', isError: true, meta: { tool: 'read_file', error: 'not_a_file', path: 'pipe' } });
    expect(fifo.files).toEqual([]);
    const spawnFail = mapped(call('run_command', { command: 'npm test' }), { content: 'Could not run', isError: true, meta: { tool: 'run_command', error: 'spawn_failed' } });
    expect(spawnFail).toMatchObject({ source: 'test_result', kind: 'tool_output' });
  });

  it('[tools] ids and signatures are deterministic; phase is carried; Engine.addItem accepts every mapping', () => {
    const a = call('grep', { pattern: 'x', path: 'src' }, 'call_A');
    const b: ToolCall = { id: 'call_B', name: 'grep', arguments: '{ "path": "src",  "pattern": "x" }' };
    expect(signatureOf(a)).toBe(signatureOf(b));
    expect(signatureOf({ id: 'z', name: 'grep', arguments: 'not json' })).toBe('grep not json');
    const result: ToolResult = { content: 'src/a.ts:1: x', isError: false, meta: { tool: 'grep', pattern: 'x', fixed: false, path: 'src', hits: [{ file: 'src/a.ts', line: 1 }], filesSearched: 1, truncated: false } };
    expect(mapped(a, result)).toEqual(mapped(a, result));
    expect(mapped(a, result, { phase: 'explore' }).phase).toBe('explore');

    const { engine } = newEngine();
    const first = engine.addItem(mapped(a, result));
    const second = engine.addItem(mapped(b, result));
    expect([first.id, second.id]).toEqual(['tool:call_A', 'tool:call_B']);
    expect(first.signature).toBe(second.signature);
    expect(() => engine.addItem(mapped(a, result))).toThrow(/already in the pool/);
    // Empty content never reaches the engine (it would refuse it).
    expect(mapped(a, { ...result, content: '' }).content).toBe('(no output)');
  });
});

describe('locationsIn', () => {
  it('[tools] finds relative, absolute-under-root and tsc-style locations, and ignores the rest', () => {
    expect(locationsIn(FAILING_OUTPUT, '/work/ws')).toEqual([
      { file: 'test/auth/refresh.test.ts', line: 12 },
      { file: 'src/auth/refresh.ts', line: 2 },
      { file: 'src/auth/store.ts', line: 4 },
    ]);
    // Without the root, absolute paths are dropped.
    expect(locationsIn('at f (/work/ws/src/a.ts:2:1)')).toEqual([]);
    expect(locationsIn('C:\\work\\ws\\src\\a.ts:7:1', 'C:\\work\\ws')).toEqual([{ file: 'src/a.ts', line: 7 }]);
    expect(locationsIn('../outside.ts:3 v1.2.3:4 a.ts:0 README.md:5')).toEqual([{ file: 'README.md', line: 5 }]);
  });

  // What keeps the work bounded on adversarial output, checked as behaviour rather than timed: only
  // the first 5000 lines and the first 2000 characters of a line are read, words over 400 are skipped.
  it('[tools] reads adversarial output within its bounds: 5000 lines, 2000 characters a line, words up to 400', () => {
    expect(locationsIn(`${'a'.repeat(100_000)}:1 ${':1'.repeat(50_000)}\n`.repeat(20))).toEqual([]);
    expect(locationsIn(`${'\n'.repeat(4999)}src/a.ts:3`)).toEqual([{ file: 'src/a.ts', line: 3 }]);
    expect(locationsIn(`${'\n'.repeat(5000)}src/a.ts:3`)).toEqual([]);
    expect(locationsIn(`${'x'.repeat(1980)} src/a.ts:3`)).toEqual([{ file: 'src/a.ts', line: 3 }]);
    expect(locationsIn(`${'x'.repeat(2000)} src/a.ts:3`)).toEqual([]);
    const longPath = `src/${'d/'.repeat(196)}a.ts:3`;
    expect(longPath.length).toBeGreaterThan(400);
    expect(locationsIn(longPath)).toEqual([]);
    expect(locationsIn(`src/${'d/'.repeat(190)}a.ts:3`)).toEqual([{ file: `src/${'d/'.repeat(190)}a.ts`, line: 3 }]);
  });
});
