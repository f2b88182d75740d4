/**
 * A small coding-agent conversation for the peer adapter tests: a system prompt, three user turns,
 * assistant messages with PARALLEL tool calls and their results (one an error), argument texts
 * that are compact JSON, spaced JSON and not JSON at all, and a final text-only answer. Older tool
 * results are long, so a budget that holds the last turn forces trimming.
 */
import type { Message, ToolCall } from '../../../engine/conversation/Message';

const call = (id: string, name: string, args: string): ToolCall => ({ id, name, arguments: args });

function fileText(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `${name}:${i + 1}: export const value${i} = compute(${i}, "${name}");`).join('\n');
}

export const SYSTEM_ID = 'sys';

export function syntheticConversation(): Message[] {
  return [
    { id: SYSTEM_ID, role: 'system', kind: 'canonical', content: 'You are a coding agent working in a TypeScript repository. Use the tools.' },
    { id: 'u1', role: 'user', content: 'The parser tests fail. Find out why and fix it.' },
    {
      id: 'a1',
      role: 'assistant',
      content: 'I will read the parser and the lexer first.',
      toolCalls: [call('call_1', 'read_file', '{"path":"src/parser.ts"}'), call('call_2', 'read_file', '{"path": "src/lexer.ts"}')],
    },
    { id: 't1', role: 'tool', toolCallId: 'call_1', content: fileText('parser.ts', 60), isError: false },
    { id: 't2', role: 'tool', toolCallId: 'call_2', content: fileText('lexer.ts', 60), isError: false },
    { id: 'a2', role: 'assistant', content: '', toolCalls: [call('call_3', 'run', '{"cmd":"npm test -- parser"}')] },
    { id: 't3', role: 'tool', toolCallId: 'call_3', content: `FAIL parser.test.ts\n${fileText('trace', 40)}`, isError: true },
    {
      id: 'a3',
      role: 'assistant',
      content: 'The lexer drops the last token. Patching it and re-running the tests.',
      toolCalls: [call('call_4', 'apply_patch', '*** Begin Patch\n*** Update File: src/lexer.ts\n-  i < n - 1\n+  i < n\n*** End Patch'), call('call_5', 'run', '{"cmd":"npm test"}')],
    },
    { id: 't4', role: 'tool', toolCallId: 'call_4', content: 'Done. Updated src/lexer.ts', isError: false },
    { id: 't5', role: 'tool', toolCallId: 'call_5', content: `PASS\n${fileText('ok', 30)}`, isError: false },
    { id: 'a4', role: 'assistant', content: 'Fixed: the lexer stopped one token early. All parser tests pass.', toolCalls: [] },
    { id: 'u2', role: 'user', content: 'Thanks. Add a changelog entry and check the docs mention the fix.' },
    {
      id: 'a5',
      role: 'assistant',
      content: 'Reading both files.',
      toolCalls: [call('call_6', 'read_file', '{"path":"CHANGELOG.md"}'), call('call_7', 'read_file', '{"path":"docs/parser.md"}')],
    },
    { id: 't6', role: 'tool', toolCallId: 'call_6', content: fileText('CHANGELOG.md', 25), isError: false },
    { id: 't7', role: 'tool', toolCallId: 'call_7', content: fileText('parser.md', 25), isError: false },
    { id: 'a6', role: 'assistant', content: '', toolCalls: [call('call_8', 'edit_file', '{"path":"CHANGELOG.md","insert":"- Fix: lexer kept the last token"}')] },
    { id: 't8', role: 'tool', toolCallId: 'call_8', content: 'ok', isError: false },
    { id: 'a7', role: 'assistant', content: 'Changelog updated; the docs needed no change.', toolCalls: [] },
    { id: 'u3', role: 'user', content: 'Run the whole suite once more, please.' },
    {
      id: 'a8',
      role: 'assistant',
      content: 'Running unit and integration tests in parallel.',
      toolCalls: [call('call_9', 'run', '{"cmd":"npm run test:unit"}'), call('call_10', 'run', '{"cmd":"npm run test:integration"}')],
    },
    { id: 't9', role: 'tool', toolCallId: 'call_9', content: 'PASS 412 tests', isError: false },
    { id: 't10', role: 'tool', toolCallId: 'call_10', content: 'PASS 57 tests', isError: false },
    { id: 'a9', role: 'assistant', content: 'Everything passes: 412 unit and 57 integration tests.', toolCalls: [] },
  ];
}
