import { describe, expect, it } from 'vitest';
import { isTestCommand, parseCommandLine } from '../../../../../engine/runtime/commandLine';

const argv = (text: string) => {
  const parsed = parseCommandLine(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.argv;
};

describe('parseCommandLine', () => {
  it.each<[string, string[]]>([
    ['npm test', ['npm', 'test']],
    ['  npm   test  -- foo ', ['npm', 'test', '--', 'foo']],
    ['npx vitest run "test/a b.test.ts"', ['npx', 'vitest', 'run', 'test/a b.test.ts']],
    ["node -e 'let x = 1'", ['node', '-e', 'let x = 1']],
    ['node -e ""', ['node', '-e', '']],
    ['a --name="x y"z', ['a', '--name=x yz']],
    [`a "it's" 'say "hi"'`, ['a', "it's", 'say "hi"']],
    ['a\tb', ['a', 'b']],
    ['a C:\\dir\\file.ts', ['a', 'C:\\dir\\file.ts']],
    ['', []],
  ])('[tools] %j splits into %j', (text, expected) => {
    expect(parseCommandLine(text)).toEqual({ ok: true, argv: expected });
  });

  it.each([
    ['npm test; rm -rf /', '";"'],
    ['npm test && rm -rf /', '"&"'],
    ['npm test | sh', '"|"'],
    ['npm test > out', '">"'],
    ['npm test < in', '"<"'],
    ['echo $HOME', '"$"'],
    ['echo `id`', '"`"'],
    ['echo $(id)', '"$" "(" ")"'],
    ['npm test "a;b"', '";"'],
    ["npm test 'a|b'", '"|"'],
    ['npm test\nrm -rf /', 'line break'],
    ['npm test\r', 'line break'],
    ['npm test\u0000', 'NUL'],
    ['npm "test', 'unclosed double quote'],
    ["npm 'test", 'unclosed single quote'],
  ])('[tools] refuses %j', (text, fragment) => {
    const parsed = parseCommandLine(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(fragment);
  });

  it('[tools] refuses too many words and too long a line', () => {
    expect(parseCommandLine(Array.from({ length: 257 }, () => 'a').join(' ')).ok).toBe(false);
    expect(parseCommandLine('a'.repeat(4001)).ok).toBe(false);
  });
});

describe('isTestCommand', () => {
  it.each([
    'npm test',
    'npm t',
    'npm run test',
    'npm run test:unit',
    'pnpm test',
    'yarn test',
    'npx vitest run',
    'npx vitest',
    'vitest run',
    'jest --ci',
    'npx jest',
    'npx playwright test',
    'cargo test',
    'go test ./...',
    'python -m pytest -q',
    'pytest',
    'uv run pytest',
    'node --test',
    'make test',
    'bun test',
    'deno test',
  ])('[tools] %j runs tests', (command) => {
    expect(isTestCommand(argv(command))).toBe(true);
  });

  it.each(['npm run build', 'npx tsc --noEmit', 'node -e 1', 'git log test', 'ls', 'go build', 'npm install', 'cargo build', ''])('[tools] %j does not run tests', (command) => {
    expect(isTestCommand(argv(command))).toBe(false);
  });
});
