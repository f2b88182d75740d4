import { describe, expect, it } from 'vitest';
import { actionPaths, pathsIn } from '../../../../../engine/traces/replay/actionPaths';
import { classifyToolCall, shellKind, testFailed } from '../../../../../engine/traces/replay/classifyToolCall';

const callOf = (args: unknown) => ({ arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('[replay-items] paths an action names (item provenance)', () => {
  it('[replay-items] finds paths with separators or a source extension in text, not URLs or globs', () => {
    expect(pathsIn('Look at ./src/auth/store.ts:42 and grid.py, call saveToken() and check MAX_TOKENS; see https://x.io/a/b.ts and **/*.ts')).toEqual(['src/auth/store.ts', 'grid.py']);
  });

  it('[replay-items] takes a path argument whole (spaces included), skips new content and working directories, reads patches by their headers and old lines', () => {
    const paths = actionPaths(
      ['I will edit it.'],
      [
        callOf({ file_path: 'C:\\Users\\me\\March 24\\repo\\cmd\\main.go', old_string: 'load("conf/old.yaml")', new_string: 'load("conf/new.yaml")' }),
        callOf({ command: 'Get-Content src\\router\\index.ts', workdir: 'C:\\Users\\me\\app\\frontend' }),
        callOf({ input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-import "./kept.ts";\n+import "./fresh.ts";\n*** End Patch' }),
        callOf({ content: 'import "./written.ts";', file_path: 'src/new.ts' }),
      ],
    );
    expect(paths).toEqual(['C:/Users/me/March 24/repo/cmd/main.go', 'conf/old.yaml', 'src/router/index.ts', 'src/a.ts', 'kept.ts', 'src/new.ts']);
  });

  it('[replay-items] an argument text that is not JSON is read as free text', () => {
    expect(actionPaths([], [callOf('cat src/x/y.rs | head')])).toEqual(['src/x/y.rs']);
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
