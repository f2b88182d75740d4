import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const call = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/**
 * A made-up OpenAI-style session (no real trace content): a system prompt, a task, and four LLM
 * calls of the main agent with three tool calls (read, edit, test run) and their results.
 */
export const SYNTHETIC_TRACE = { steps: 4, toolCalls: 3, eventCount: 12, format: 'openai-messages-json' } as const;

/** Write the synthetic session as pretty-printed JSON at `dir/name` (`salt` changes its bytes, not its shape) and return the path. */
export function writeSyntheticTrace(dir: string, name = 'session.json', salt = ''): string {
  const messages = [
    { role: 'system', content: 'You are a coding agent working in a small TypeScript repository.' },
    { role: 'user', content: `Fix the off-by-one in src/range.ts and run the tests.${salt}` },
    { role: 'assistant', content: 'Reading src/range.ts first.', tool_calls: [call('c1', 'read_file', { path: 'src/range.ts' })] },
    { role: 'tool', tool_call_id: 'c1', content: 'export function range(n: number): number[] {\n  return [...Array(n + 1).keys()];\n}\n' },
    { role: 'assistant', content: 'range() includes n; the fix is in src/range.ts.', tool_calls: [call('c2', 'edit_file', { path: 'src/range.ts', old: 'n + 1', new: 'n' })] },
    { role: 'tool', tool_call_id: 'c2', content: 'edited src/range.ts' },
    { role: 'assistant', content: 'Running the tests for range().', tool_calls: [call('c3', 'run_command', { command: 'npm test -- test/range.test.ts' })] },
    { role: 'tool', tool_call_id: 'c3', content: 'PASS test/range.test.ts\n  range(3) is [0, 1, 2]\n3 passed' },
    { role: 'assistant', content: 'Fixed range() in src/range.ts; test/range.test.ts passes.' },
  ];
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ messages }, null, 2));
  return path;
}

/** A trace cut off in the middle of its second message: a `TraceImportError` at line 9. */
export function writeTruncatedTrace(dir: string, name = 'truncated.json'): string {
  const path = join(dir, name);
  writeFileSync(path, ['{', '  "messages": [', '    {', '      "role": "user",', '      "content": "Fix the bug."', '    },', '    {', '      "role": "assistant",', '      "content": "Looking', ''].join('\n'));
  return path;
}
