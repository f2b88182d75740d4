import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../engine/conversation/Message';
import { createWorkspaceTools, type ToolRegistry } from '../../../engine/node/tools/registry';
import { toolResultItem } from '../../../engine/node/tools/toolResultItem';
import { DEFAULT_TOOLS_CONFIG } from '../../../engine/node/tools/toolsConfig';
import type { ToolErrorMeta, ToolResult } from '../../../engine/node/tools/types';
import { newEngine, T0 } from '../../support/engineFixtures';
import { makeWorkspace, PROJECT, type Fixture } from './workspaceFixture';

let fx: Fixture;
let tools: ToolRegistry;
beforeEach(() => {
  fx = makeWorkspace({ ...PROJECT, 'fail.js': 'console.error("src/auth/refresh.ts:2:10 expected 1 to be 2"); process.exit(1);' });
  tools = createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, allow: ['node --test', 'node -e 1'] });
});
afterEach(() => fx.remove());

const errorCode = (r: ToolResult) => (r.meta as ToolErrorMeta).error;

describe('createWorkspaceTools', () => {
  it('[tools] advertises the four tools as provider specs with JSON-schema parameters', () => {
    expect(tools.specs.map((s) => s.name)).toEqual(['list_files', 'read_file', 'grep', 'run_command']);
    for (const spec of tools.specs) {
      expect(spec.description.length).toBeGreaterThan(20);
      expect(spec.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(typeof spec.parameters['properties']).toBe('object');
    }
    expect(tools.specs.find((s) => s.name === 'read_file')?.parameters['required']).toEqual(['path']);
    expect(tools.specs.find((s) => s.name === 'grep')?.parameters['required']).toEqual(['pattern']);
    // Specs are plain JSON (they go into a provider request as they are).
    expect(JSON.parse(JSON.stringify(tools.specs))).toEqual(tools.specs);
  });

  it('[tools] refuses a root that is not a directory and a config that breaks the rules', () => {
    expect(() => createWorkspaceTools(`${fx.root}/package.json`)).toThrow(/not a directory/);
    expect(() => createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, allow: ['a; b'] })).toThrow(/tools\.allow\[0\]/);
    expect(() => createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, timeoutMs: 0 })).toThrow(/tools\.timeout_ms/);
  });

  it('[tools] the config is frozen: changing the caller’s array later changes nothing', async () => {
    const allow = ['node'];
    const registry = createWorkspaceTools(fx.root, { ...DEFAULT_TOOLS_CONFIG, allow });
    allow.push('rm');
    expect(registry.config.allow).toEqual(['node']);
    expect(Object.isFrozen(registry.config.allow)).toBe(true);
  });
});

describe('ToolRegistry.call', () => {
  it.each<[string, ToolCall, string, string]>([
    ['malformed JSON', { id: 'c1', name: 'read_file', arguments: '{"path": "README.md"' }, 'malformed_json', 'not valid JSON'],
    ['a JSON array', { id: 'c2', name: 'read_file', arguments: '["README.md"]' }, 'malformed_json', 'must be a JSON object'],
    ['a JSON string', { id: 'c3', name: 'grep', arguments: '"x"' }, 'malformed_json', 'must be a JSON object'],
    ['JSON null', { id: 'c4', name: 'grep', arguments: 'null' }, 'malformed_json', 'must be a JSON object'],
    ['an unknown tool', { id: 'c5', name: 'write_file', arguments: '{}' }, 'unknown_tool', 'Available tools: list_files, read_file, grep, run_command'],
    ['an empty name', { id: 'c6', name: '', arguments: '{}' }, 'unknown_tool', 'Unknown tool ""'],
    ['a prototype name', { id: 'c7', name: 'constructor', arguments: '{}' }, 'unknown_tool', 'Unknown tool'],
    ['huge arguments', { id: 'c8', name: 'grep', arguments: `{"pattern":"${'x'.repeat(70_000)}"}` }, 'malformed_json', 'longer than'],
    ['a wrong argument type', { id: 'c9', name: 'grep', arguments: '{"pattern": 5}' }, 'invalid_arguments', 'pattern'],
    ['arguments nested 25,000 deep', { id: 'c10', name: 'grep', arguments: `{"pattern":"x","path":${'['.repeat(25_000)}${']'.repeat(25_000)}}` }, 'malformed_json', 'nest more than 1000 levels deep'],
  ])('[tools] %s is an error result, not a throw', async (_name, toolCall, code, fragment) => {
    const r = await tools.call(toolCall);
    expect(r.isError).toBe(true);
    expect(errorCode(r)).toBe(code);
    expect(r.content).toContain(fragment);
  });

  it('[tools] empty arguments mean no arguments', async () => {
    const r = await tools.call({ id: 'c1', name: 'list_files', arguments: '' });
    expect(r.isError).toBe(false);
    expect(r.content).toContain('README.md');
  });

  it('[tools] never throws, even for a call that is not shaped like one', async () => {
    const weird = [null, undefined, {}, { name: 42, arguments: {} }, { name: 'grep', arguments: 7 }] as unknown as ToolCall[];
    for (const call of weird) {
      const r = await tools.call(call);
      expect(r.isError).toBe(true);
    }
  });
});

describe('tool results as engine items', () => {
  it('[tools] every real result maps to an input Engine.addItem accepts, with ids from the call ids', async () => {
    const { engine } = newEngine();
    const calls: ToolCall[] = [
      { id: 'call_list', name: 'list_files', arguments: '{}' },
      { id: 'call_read', name: 'read_file', arguments: '{"path":"src/auth/refresh.ts"}' },
      { id: 'call_grep', name: 'grep', arguments: '{"pattern":"rotateToken"}' },
      { id: 'call_test', name: 'run_command', arguments: '{"command":"node --test fail.js"}' },
      { id: 'call_node', name: 'run_command', arguments: '{"command":"node -e 1"}' },
      { id: 'call_missing', name: 'read_file', arguments: '{"path":"nope.ts"}' },
      { id: 'call_bad', name: 'read_file', arguments: '{"path":"../x"}' },
    ];
    const added = [];
    for (const c of calls) {
      const result = await tools.call(c);
      const input = toolResultItem(c, result, { agentId: 'worker-1', taskId: 'task-auth', at: T0, workspaceRoot: tools.root.realRoot });
      if (input) added.push(engine.addItem(input));
    }
    expect(added.map((i) => [i.id, i.kind, i.class, i.provenance.source])).toEqual([
      ['tool:call_list', 'tool_output', 'ephemeral', 'repository_source'],
      ['tool:call_read', 'code', 'ephemeral', 'repository_source'],
      ['tool:call_grep', 'tool_output', 'ephemeral', 'repository_source'],
      ['tool:call_test', 'failure', 'task_state', 'test_result'],
      ['tool:call_node', 'tool_output', 'ephemeral', 'repository_source'],
      ['tool:call_missing', 'tool_output', 'ephemeral', 'repository_source'],
    ]);
    const failure = engine.item('tool:call_test');
    // The location the script printed, and node --test's own (an absolute path under the root, made relative).
    expect(failure.provenance.files).toEqual(['src/auth/refresh.ts', 'fail.js']);
    expect(failure.provenance.symbols).toEqual(['src/auth/refresh.ts:2', 'fail.js:1']);
    expect(failure.provenance.durability).toBe('task');
    expect(engine.item('tool:call_read').provenance.symbols).toEqual(['rotateToken', 'TokenStore']);
    expect(engine.item('tool:call_grep').provenance.files).toEqual(['README.md', 'src/auth/refresh.ts', 'src/index.ts', 'test/refresh.test.ts']);
  });
});
