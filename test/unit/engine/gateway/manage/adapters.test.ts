import { describe, expect, it } from 'vitest';
import { anthropicMessages } from '../../../../../engine/gateway/manage/anthropicMessages';
import { openaiChat } from '../../../../../engine/gateway/manage/openaiChat';
import { openaiResponses } from '../../../../../engine/gateway/manage/openaiResponses';

type Json = Record<string, unknown>;

describe('[gateway-manage-pairing] the API adapters', () => {
  it('Anthropic: a replaced tool_result keeps its id, is_error and marker, and an array stays an array', () => {
    const body: Json = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Bash', input: { command: 'npm test' } }, { type: 'tool_use', id: 'b', name: 'Read', input: { file_path: 'src/x.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', is_error: true, content: 'boom', cache_control: { type: 'ephemeral' } }, { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }, { type: 'image', source: {} }] }] },
      ],
    };
    const conv = anthropicMessages.read(body);
    expect(conv.results.map((r) => [r.key, r.tool, r.input, r.isError, r.otherParts])).toEqual([['a', 'Bash', 'npm test', true, 0], ['b', 'Read', 'src/x.ts', false, 1]]);
    expect(conv.currentTurnFrom).toBe(2);
    const out = anthropicMessages.replace(body, conv, new Map([['a', 'P'], ['b', 'Q']]));
    expect((out['messages'] as Json[])[2]!['content']).toEqual([
      { type: 'tool_result', tool_use_id: 'a', is_error: true, content: 'P', cache_control: { type: 'ephemeral' } },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'Q', cache_control: { type: 'ephemeral' } }] },
    ]);
    expect(((body['messages'] as Json[])[2]!['content'] as Json[])[0]!['content']).toBe('boom');
    expect(conv.entryText(2)).not.toContain('cache_control');
    expect(conv.entryText(2)).toContain('boom');
  });

  it('[gateway-manage-system-entries] Anthropic: a mid-conversation `system` message (Claude Code 2.1.332 sends them) is read as an entry without results and passes unchanged; another role is refused', () => {
    const body: Json = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'system', content: 'Reminder: the workspace is read-only.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'Read', input: { file_path: 'src/x.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'text of x' }] },
      ],
    };
    const conv = anthropicMessages.read(body);
    expect(conv.list).toHaveLength(4);
    expect(conv.entryText(1)).toBe(JSON.stringify({ role: 'system', content: 'Reminder: the workspace is read-only.' }));
    expect(conv.results.map((r) => [r.key, r.at])).toEqual([['a', 3]]);
    const out = anthropicMessages.replace(body, conv, new Map([['a', 'P']]));
    expect((out['messages'] as Json[])[1]).toEqual({ role: 'system', content: 'Reminder: the workspace is read-only.' });
    expect(() => anthropicMessages.read({ messages: [{ role: 'tool', content: 'x' }] })).toThrow('messages.0.role must be "user", "assistant" or "system"');
  });

  it('Responses: function, custom and local shell outputs pair by call_id (a local shell output may use id)', () => {
    const body: Json = {
      prompt_cache_key: 'k',
      input: [
        { type: 'function_call', call_id: 'f', name: 'shell', arguments: '{"command":["bash","-lc","ls"]}' },
        { type: 'function_call_output', call_id: 'f', output: [{ type: 'input_text', text: 'a.ts' }] },
        { type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: '*** Begin Patch\n...' },
        { type: 'custom_tool_call_output', call_id: 'c', output: 'done' },
        { type: 'local_shell_call', id: 'l', call_id: 'l', action: { type: 'exec', command: ['ls'] } },
        { type: 'local_shell_call_output', id: 'l', output: 'x' },
      ],
    };
    const conv = openaiResponses.read(body);
    expect(conv.results.map((r) => [r.key, r.tool, r.input])).toEqual([['f', 'shell', 'bash -lc ls'], ['c', 'apply_patch', '*** Begin Patch'], ['l', 'local_shell', 'ls']]);
    expect(conv.currentTurnFrom).toBe(5);
    const out = openaiResponses.replace(body, conv, new Map([['f', 'P'], ['l', 'Q']]));
    const input = out['input'] as Json[];
    expect(input[1]).toEqual({ type: 'function_call_output', call_id: 'f', output: [{ type: 'input_text', text: 'P' }] });
    expect(input[5]).toEqual({ type: 'local_shell_call_output', id: 'l', output: 'Q' });
    expect(out['prompt_cache_key']).toBe('k');
  });

  it('Chat: tool messages pair with tool_calls by id; the trailing tool messages are the current turn', () => {
    const body: Json = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"foo"}' } }] },
        { role: 'tool', tool_call_id: 't1', content: 'src/a.ts:1 foo' },
      ],
    };
    const conv = openaiChat.read(body);
    expect(conv.results.map((r) => [r.key, r.tool, r.input])).toEqual([['t1', 'grep', 'foo']]);
    expect(conv.currentTurnFrom).toBe(2);
    expect((openaiChat.replace(body, conv, new Map([['t1', 'P']]))['messages'] as Json[])[2]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'P' });
  });
});
