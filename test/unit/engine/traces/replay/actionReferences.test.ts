import { describe, expect, it } from 'vitest';
import { actionReferences, holdsReference, referencesIn, type Reference } from '../../../../../engine/traces/replay/actionReferences';
import { classifyToolCall, shellKind, testFailed } from '../../../../../engine/traces/replay/classifyToolCall';

const path = (value: string): Reference => ({ kind: 'path', value });
const symbol = (value: string): Reference => ({ kind: 'symbol', value });
const callOf = (args: unknown) => ({ arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('[replay-recall] references an action names', () => {
  it('[replay-recall] finds paths (with separators or a source extension) and code-shaped symbols in text', () => {
    const refs = referencesIn('Look at ./src/auth/store.ts:42 and grid.py, call saveToken() and check MAX_TOKENS in `RectilinearGrid`; see https://x.io/a/b.ts and **/*.ts');
    expect(refs).toEqual([path('src/auth/store.ts'), path('grid.py'), symbol('saveToken'), symbol('MAX_TOKENS'), symbol('RectilinearGrid'), symbol('saveToken')]);
  });

  it('[replay-recall] takes a path argument whole (spaces included), skips new content and working directories, reads patches by their headers and old lines', () => {
    const refs = actionReferences(
      ['I will edit it.'],
      [
        callOf({ file_path: 'C:\\Users\\me\\March 24\\repo\\cmd\\main.go', old_string: 'func oldHandler() {}', new_string: 'func brandNew() {}' }),
        callOf({ command: 'Get-Content src\\router\\index.ts', workdir: 'C:\\Users\\me\\app\\frontend' }),
        callOf({ input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const oldName = keepThis();\n+const newName = freshCall();\n*** End Patch' }),
        callOf({ content: 'export const writtenOnly = anotherNewThing();', file_path: 'src/new.ts' }),
      ],
    );
    expect(refs).toEqual([
      path('C:/Users/me/March 24/repo/cmd/main.go'),
      symbol('oldHandler'),
      path('src/router/index.ts'),
      path('src/a.ts'),
      symbol('oldName'),
      symbol('keepThis'),
      path('src/new.ts'),
    ]);
  });

  it('[replay-recall] an argument text that is not JSON is read as free text', () => {
    expect(actionReferences([], [callOf('cat src/x/y.rs | head')])).toEqual([path('src/x/y.rs')]);
  });
});

describe('[replay-recall] what a context holds', () => {
  it.each([
    ['repo/src/auth/store.ts is here', 'src/auth/store.ts', true],
    ['only auth/store.tsx is here', 'src/auth/store.ts', false],
    ['C:\\repo\\src\\auth\\store.ts', 'C:/repo/src/auth/store.ts', true],
    ['{"file_path":"C:\\\\repo\\\\auth\\\\store.ts"}', 'x/auth/store.ts', true],
    ['see myauth/store.ts', 'src/auth/store.ts', false],
    ['see auth/store.ts.', 'src/auth/store.ts', true],
    ['see auth/store.ts.bak', 'src/auth/store.ts', false],
    ['package.json', 'package.json', true],
    ['mypackage.json', 'package.json', false],
  ])('[replay-recall] %j holds path %s: %s', (context, value, held) => {
    expect(holdsReference(context, path(value))).toBe(held);
  });

  it.each([
    ['calls saveToken(x)', true],
    ['calls saveTokenFamily(x)', false],
    ['calls _saveToken(x)', false],
  ])('[replay-recall] %j holds symbol saveToken: %s', (context, held) => {
    expect(holdsReference(context, symbol('saveToken'))).toBe(held);
  });
});

describe('[replay-items] tool calls by kind', () => {
  it.each([
    ['Read', { file_path: 'a.ts' }, 'read'],
    ['Grep', { pattern: 'x' }, 'search'],
    ['apply_patch', { input: '*** Begin Patch' }, 'edit'],
    ['TodoWrite', { todos: [] }, 'plan'],
    ['Agent', { prompt: 'explore' }, 'agent'],
    ['mcp__docs__query', { q: 'x' }, 'other'],
    ['Bash', { command: 'cd repo && npm test -- --run' }, 'test'],
    ['bash', { command: "sed -n '1,40p' pkg/grid.py" }, 'read'],
    ['shell_command', { command: 'Get-Content src\\a.ts', workdir: 'C:\\x' }, 'read'],
    ['exec_command', { cmd: 'rg -n auth src' }, 'search'],
    ['shell', { command: ['bash', '-lc', 'python -m pytest tests/'] }, 'test'],
    ['Bash', { command: 'docker compose up --build' }, 'shell'],
  ])('[replay-items] %s %j is %s', (name, args, kind) => {
    expect(classifyToolCall(name, JSON.stringify(args)).kind).toBe(kind);
  });

  it('[replay-items] a shell command is classified by its first real program, a test run by any segment', () => {
    expect(shellKind('FOO=1 timeout 60 cat a.txt')).toBe('read');
    expect(shellKind('ls src; npx vitest run')).toBe('test');
  });

  it.each([
    ['Exit code: 1\nWall time: 3 seconds', false, true],
    ['<returncode>2</returncode>', false, true],
    ['Tests: 3 failed, 10 passed', false, true],
    ['Exit code: 0\n12 passed', false, false],
    ['all good', true, true],
  ])('[replay-items] test output %j (error flag %s) failed: %s', (content, isError, failed) => {
    expect(testFailed(content, isError)).toBe(failed);
  });
});
