/**
 * Per-program argument grammars of `run_command` allow entries (pure). An allow entry permits
 * exactly its own command; a grammar says which extra arguments may follow it. Only test runners
 * and package-script runners have one, and each accepts only positional test files, folders or
 * name filters (confined to the workspace by the caller) and a short list of options that load
 * no code and name no file. Every option not listed is refused, since runners and launchers take
 * options that run code (`--node-options`, `--import`, `-r`, `--loader`, `-p`), swap the program
 * (`--script-shell`) or move the project (`--prefix`, `--config`, `--rootdir`, `--userconfig`).
 */

/** How an option takes its value: none, any word, one of a few names, or a positive integer. */
type OptionKind = 'flag' | 'value' | 'count' | readonly string[];

/** What a grammar made of the extra arguments. `paths` are the positionals, for the caller to confine. */
type GrammarResult = { ok: true; paths: string[] } | { ok: false; argument: string; why: string };

export interface CommandGrammar {
  /** What the entry permits beyond itself, in a person's words (`<entry>` stands for the entry). */
  readonly permits: string;
  check(extra: readonly string[]): GrammarResult;
}

/** Words that the rest of an argv is never matched against, in any grammar. */
const ALWAYS_REFUSED = ['%', 'data:', 'file:'] as const;

/** Why an argument is refused whatever the entry (`%`, `data:`, `file:` in any case), or undefined. */
export function alwaysRefused(arg: string): string | undefined {
  const lower = arg.toLowerCase();
  const hit = ALWAYS_REFUSED.find((w) => lower.includes(w));
  return hit === undefined ? undefined : `contains "${hit}", which is never allowed in a command (it can smuggle encoded code or a module URL)`;
}

/** Why a positional argument cannot be a test file, folder or filter, or undefined. */
function positionalProblem(arg: string): string | undefined {
  if (arg === '') return 'is empty';
  if (arg.startsWith('@')) return 'starts with "@" (an argument file)';
  if (arg.startsWith('~')) return 'starts with "~" (a home folder, outside the workspace)';
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) return 'is a variable assignment (NAME=value)';
  if (arg.includes('://')) return 'is a URL';
  if (arg.split(/[\\/]/).includes('..')) return 'leaves its folder with ".."';
  return undefined;
}

/**
 * Read `extra` against `options`: each option by its exact name (`--name=value` or `--name value`;
 * a value in the next word must not start with "-"), every other word a positional.
 */
function readArgs(extra: readonly string[], options: ReadonlyMap<string, OptionKind>, positional: (arg: string, index: number) => string | undefined): GrammarResult {
  const paths: string[] = [];
  for (let i = 0; i < extra.length; i++) {
    const arg = extra[i] as string;
    if (arg.startsWith('-') && arg !== '-') {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      const kind = options.get(name);
      if (kind === undefined) return { ok: false, argument: arg, why: `is an option this entry does not permit` };
      if (kind === 'flag') {
        if (eq > 0) return { ok: false, argument: arg, why: `takes no value` };
        continue;
      }
      let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : extra[i + 1];
      if (eq <= 0) {
        if (value === undefined || value.startsWith('-')) return { ok: false, argument: arg, why: `needs a value (write ${name}=<value> for one that starts with "-")` };
        i++;
      }
      value ??= '';
      if (kind === 'count' && !/^[1-9][0-9]{0,5}$/.test(value)) return { ok: false, argument: arg, why: `needs a positive whole number` };
      if (Array.isArray(kind) && !kind.includes(value)) return { ok: false, argument: arg, why: `accepts only ${kind.map((k) => `"${k}"`).join(', ')}` };
      continue;
    }
    const problem = positionalProblem(arg) ?? positional(arg, paths.length);
    if (problem !== undefined) return { ok: false, argument: arg, why: problem };
    paths.push(arg);
  }
  return { ok: true, paths };
}

const options = (entries: Record<string, OptionKind>) => new Map(Object.entries(entries));
const listed = (opts: ReadonlyMap<string, OptionKind>) =>
  [...opts].map(([name, kind]) => (kind === 'flag' ? name : kind === 'count' ? `${name}=<n>` : Array.isArray(kind) ? `${name}=<${kind.join('|')}>` : `${name} <pattern>`)).join(', ');

function runnerGrammar(runner: string, opts: ReadonlyMap<string, OptionKind>, positional: (arg: string, index: number) => string | undefined = () => undefined): CommandGrammar {
  return {
    permits: `"<entry>" followed by test files, folders or name filters inside the workspace and only these ${runner} options: ${listed(opts)}`,
    check: (extra) => readArgs(extra, opts, positional),
  };
}

const VITEST_COMMANDS = new Set(['watch', 'dev', 'related', 'bench', 'init', 'list', 'typecheck']);
const VITEST = runnerGrammar(
  'vitest',
  options({
    '--run': 'flag',
    '-t': 'value',
    '--testNamePattern': 'value',
    '--reporter': ['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'tree', 'github-actions', 'hanging-process'],
    '--bail': 'count',
    '--silent': 'flag',
    '--passWithNoTests': 'flag',
  }),
  (arg, index) => (index === 0 && VITEST_COMMANDS.has(arg) ? `is a vitest command other than "run"` : undefined),
);
const JEST = runnerGrammar('jest', options({ '-t': 'value', '--testNamePattern': 'value', '--ci': 'flag', '-i': 'flag', '--runInBand': 'flag', '--silent': 'flag', '--verbose': 'flag', '--bail': 'flag', '--passWithNoTests': 'flag' }));
const NODE_TEST = runnerGrammar('node --test', options({ '--test': 'flag', '--test-name-pattern': 'value', '--test-only': 'flag', '--test-reporter': ['spec', 'tap', 'dot', 'junit', 'lcov'] }));
const PYTEST_OPTIONS = options({
  '-k': 'value',
  '-m': 'value',
  '-x': 'flag',
  '-q': 'flag',
  '-v': 'flag',
  '-s': 'flag',
  '-vv': 'flag',
  '-qq': 'flag',
  '--tb': ['auto', 'long', 'short', 'line', 'native', 'no'],
  '--maxfail': 'count',
  '--lf': 'flag',
  '--ff': 'flag',
  '--no-header': 'flag',
  '--collect-only': 'flag',
});
const PYTEST = runnerGrammar('pytest', PYTEST_OPTIONS);

/** `npm test -- <positionals>`: npm reads every option before "--" itself (`--node-options`, `--prefix`), so "--" is required. */
function scriptGrammar(separatorRequired: boolean, separated: boolean): CommandGrammar {
  const needsSeparator = separatorRequired && !separated;
  return {
    permits: needsSeparator
      ? `"<entry> -- <args>", where each argument after "--" is a test file, folder or name filter inside the workspace (no options)`
      : `"<entry>" followed by test files, folders or name filters inside the workspace (no options)${separated ? '' : ', optionally after "--"'}`,
    check(extra) {
      let rest = extra;
      if (!separated) {
        if (rest[0] === '--') rest = rest.slice(1);
        else if (separatorRequired) {
          const first = rest[0] as string;
          return { ok: false, argument: first, why: first.startsWith('-') ? 'is an option this entry does not permit (npm would read it itself)' : 'comes before "--" (npm reads arguments before "--" itself)' };
        }
      }
      return readArgs(rest, new Map(), () => undefined);
    },
  };
}

const RUNNERS: Record<string, CommandGrammar> = { vitest: VITEST, jest: JEST, pytest: PYTEST, 'py.test': PYTEST };
const EXEC_LAUNCHERS = new Set(['npx', 'pnpx', 'bunx']);
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn']);

/**
 * The grammar for the extra arguments of an allow entry (its argv), or undefined when the entry
 * permits only itself. Known shapes: a runner run directly (`vitest`, `jest`, `pytest`), through
 * `npx`/`pnpx`/`bunx`/`pnpm`/`yarn` (`npx vitest run`, `pnpm exec jest`), `python -m pytest`,
 * `node --test …`, and package scripts (`npm test`, `npm run <script>`, the same with pnpm/yarn).
 */
export function grammarFor(entry: readonly string[]): CommandGrammar | undefined {
  const [program, first, second] = entry;
  if (program === undefined) return undefined;
  const runner = (word: string | undefined) => (word !== undefined && Object.hasOwn(RUNNERS, word) ? RUNNERS[word] : undefined);
  const direct = runner(program) ?? (EXEC_LAUNCHERS.has(program) || program === 'pnpm' || program === 'yarn' ? runner(first) : undefined);
  if (direct !== undefined) return direct;
  if ((program === 'pnpm' || program === 'yarn') && first === 'exec' && runner(second) !== undefined) return runner(second);
  if ((program === 'python' || program === 'python3') && first === '-m' && second === 'pytest') return PYTEST;
  if (program === 'node' && entry.includes('--test')) return NODE_TEST;
  if (SCRIPT_RUNNERS.has(program)) {
    const separated = entry.at(-1) === '--' && entry.length > 2;
    const shape = separated ? entry.slice(0, -1) : entry;
    const isScript = (shape.length === 2 && (shape[1] === 'test' || (program !== 'yarn' && shape[1] === 't'))) || (shape.length === 3 && (shape[1] === 'run' || shape[1] === 'run-script') && !(shape[2] as string).startsWith('-'));
    if (isScript) return scriptGrammar(program === 'npm', separated);
  }
  return undefined;
}
