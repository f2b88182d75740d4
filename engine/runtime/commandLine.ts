/**
 * Command lines for `run_command`, without a shell (pure). A command is split into argv here and
 * handed to `spawn` as is, so nothing a shell would interpret can reach one: the characters a shell
 * treats as control (`; | & $ \` > < ( )`) and line breaks are refused outright, even inside quotes,
 * rather than escaped.
 */

/** Characters refused anywhere in a command (or an allow entry). */
const SHELL_METACHARACTERS: readonly string[] = Object.freeze([';', '|', '&', '$', '`', '>', '<', '(', ')']);

/** Longest command accepted, and most arguments. */
export const MAX_COMMAND_CHARS = 4000;
const MAX_COMMAND_ARGS = 256;

export type ParsedCommand = { ok: true; argv: string[] } | { ok: false; reason: string };

const WHITESPACE = new Set([' ', '\t', '\v', '\f']);

/**
 * Split a command line into argv. Words are separated by blanks; `'…'` and `"…"` group a word
 * with its blanks (no escapes inside either, and quotes next to text join it: `--name="a b"` is
 * one argument `--name=a b`); `''` is an empty argument. A backslash is an ordinary character.
 * Refused: shell metacharacters, newlines, NUL, unbalanced quotes, more than `MAX_COMMAND_ARGS`
 * words or `MAX_COMMAND_CHARS` characters.
 */
export function parseCommandLine(text: string): ParsedCommand {
  if (text.length > MAX_COMMAND_CHARS) return { ok: false, reason: `it is longer than ${MAX_COMMAND_CHARS} characters` };
  if (/[\r\n\u2028\u2029]/.test(text)) return { ok: false, reason: 'it contains a line break' };
  if (text.includes('\u0000')) return { ok: false, reason: 'it contains a NUL character' };
  const meta = [...new Set([...text].filter((c) => SHELL_METACHARACTERS.includes(c)))];
  if (meta.length > 0) return { ok: false, reason: `it contains the shell metacharacter${meta.length > 1 ? 's' : ''} ${meta.map((c) => `"${c}"`).join(' ')}, which are never allowed (no shell runs the command)` };

  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (const c of text) {
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (WHITESPACE.has(c)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) return { ok: false, reason: `it has an unclosed ${quote === '"' ? 'double' : 'single'} quote` };
  if (inWord) argv.push(word);
  if (argv.length > MAX_COMMAND_ARGS) return { ok: false, reason: `it has more than ${MAX_COMMAND_ARGS} arguments` };
  return { ok: true, argv };
}

/** Programs that are test runners whatever their arguments. */
const TEST_RUNNERS = new Set(['vitest', 'jest', 'mocha', 'pytest', 'py.test', 'ava', 'tap', 'rspec', 'phpunit', 'ctest', 'karma', 'jasmine', 'nextest', 'tox']);
/** Launchers whose next word (`npm test`, `cargo test`, `npx vitest`) says what runs. */
const LAUNCHERS = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'cargo', 'go', 'deno', 'dotnet', 'mvn', 'gradle', 'gradlew', 'make', 'poetry', 'uv', 'python', 'python3', 'node', 'playwright', 'rake', 'mix']);
const RUN_WORDS = new Set(['run', 'run-script', 'exec', 'dlx', 'x', '-m']);

/** A program name without its folder and a Windows extension, lower case (`C:\x\NPM.cmd` → `npm`). */
function programName(token: string): string {
  const base = token.split(/[\\/]/).pop() ?? token;
  return base.toLowerCase().replace(/\.(cmd|exe|bat|ps1|js|mjs|cjs)$/, '');
}

const isTestWord = (word: string) => /^tests?([:._-][\w:.-]*)?$/.test(word);
const SHORT_TEST = new Set(['npm', 'pnpm', 'yarn']);

/**
 * Whether a command runs tests (`npm test`, `npm run test:unit`, `npx vitest run`, `cargo test`,
 * `go test ./...`, `python -m pytest`, `node --test`, `npx playwright test`, `pytest`, ...). A
 * heuristic on the leading words, deterministic: it decides whether a failing run is recorded as a
 * test failure (task state) or as plain tool output.
 */
export function isTestCommand(argv: readonly string[]): boolean {
  const words = argv.slice(0, 4).map(programName);
  const [program, second] = words;
  if (program === undefined) return false;
  if (TEST_RUNNERS.has(program)) return true;
  if (!LAUNCHERS.has(program)) return false;
  if (program === 'node' || program === 'deno' || program === 'bun') {
    if (argv.includes('--test')) return true;
  }
  if (second !== undefined && (TEST_RUNNERS.has(second) || isTestWord(second) || (second === 't' && SHORT_TEST.has(program)))) return true;
  if (second !== undefined && (RUN_WORDS.has(second) || LAUNCHERS.has(second))) {
    const third = words[2];
    if (third !== undefined && (TEST_RUNNERS.has(third) || isTestWord(third))) return true;
    if (third !== undefined && LAUNCHERS.has(third) && words[3] !== undefined && (TEST_RUNNERS.has(words[3]) || isTestWord(words[3]))) return true;
  }
  return false;
}
