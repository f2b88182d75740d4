import { describe, expect, it } from 'vitest';
import { checkAllowed, entryPermits } from '../../../../../engine/node/tools/allowedCommand';
import { parseCommandLine } from '../../../../../engine/runtime/commandLine';

const argv = (text: string) => {
  const parsed = parseCommandLine(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.argv;
};

/** The entries a workspace might write: package scripts, runners directly and through launchers, and one exact script. */
const ALLOW = ['npm test', 'npm run test:unit', 'pnpm test', 'yarn test', 'node --test', 'npx vitest run', 'pnpm exec vitest run', 'npx jest', 'python -m pytest', 'python3 -m pytest', 'pytest', 'node scripts/check.js'];
const decide = (command: string) => checkAllowed(argv(command), ALLOW);

/** Each attack, and a word the refusal must name (the argument, or why). */
const ATTACKS: [string, string][] = [
  // npm reads its own options anywhere before "--": code through Node's options, another shell, another project or config.
  ['npm test --node-options=--import=data:text/javascript,%69%6d%70%6f%72%74', '%'],
  ['npm test --node-options=--import=./evil.mjs', '--node-options=--import=./evil.mjs'],
  ['npm test --node-options --import=./evil.mjs', '--node-options'],
  ['npm test --node-options=--require=/tmp/evil.js', '--node-options=--require=/tmp/evil.js'],
  ['npm test --node-options=-r', '--node-options=-r'],
  ['npm test --NODE-OPTIONS=--import=./evil.mjs', '--NODE-OPTIONS'],
  ['npm test --prefix /tmp/evil', '--prefix'],
  ['npm test --prefix=/tmp/evil', '--prefix=/tmp/evil'],
  ['npm test --script-shell=/tmp/evil', '--script-shell=/tmp/evil'],
  ['npm test --script-shell /tmp/evil', '--script-shell'],
  ['npm test --shell=/tmp/evil', '--shell=/tmp/evil'],
  ['npm test --userconfig /tmp/npmrc', '--userconfig'],
  ['npm test --userconfig=/tmp/npmrc', '--userconfig=/tmp/npmrc'],
  ['npm test --globalconfig=/tmp/npmrc', '--globalconfig=/tmp/npmrc'],
  ['npm test -ws', '-ws'],
  ['npm test src/a.test.ts', 'before "--"'],
  ['npm run test:unit --prefix=/tmp/evil', '--prefix=/tmp/evil'],
  ['npm run test:unit --script-shell=/tmp/evil', '--script-shell'],
  // After "--" the script gets the words: only plain files and filters, never options of whatever it runs.
  ['npm test -- --import=./evil.mjs', '--import=./evil.mjs'],
  ['npm test -- -r ./evil.js', '-r'],
  ['npm test -- --config /tmp/evil.config.ts', '--config'],
  ['npm test -- ../outside/secret.test.ts', '..'],
  ['npm test -- src/../../outside', '..'],
  ['npm test -- NODE_OPTIONS=--import=./evil.mjs', 'variable assignment'],
  ['npm test -- @/tmp/args.txt', '"@"'],
  ['npm test -- https://evil.example/x.test.js', 'URL'],
  ['npm test -- file:///tmp/evil.js', 'file:'],
  ['npm test -- FILE:///tmp/evil.js', 'file:'],
  ['npm test -- DATA:text/javascript,1', 'data:'],
  ['npm test -- ~/.ssh/id_rsa', '"~"'],
  ['npm test -- a%2e%2e', '%'],
  ['pnpm test --dir /tmp/evil', '--dir'],
  ['pnpm test --config.node-options=--import=./evil.mjs', '--config.node-options'],
  ['pnpm test -- --import=./evil.mjs', '--import'],
  ['yarn test --cwd /tmp/evil', '--cwd'],
  // The program is the entry's, written as in the entry: no path, no variables in front, no case games.
  ['./npm test', 'not an allowed command'],
  ['/tmp/evil/npm test', 'not an allowed command'],
  ['NODE_OPTIONS=--import=./evil.mjs npm test', 'not an allowed command'],
  ['env NODE_OPTIONS=--import=./evil.mjs npm test', 'not an allowed command'],
  ['NPM test', 'not an allowed command'],
  ['npm.cmd test', 'not an allowed command'],
  ['npm install evil-package', 'not an allowed command'],
  ['npx evil-package', 'not an allowed command'],
  ['node -e 1', 'not an allowed command'],
  // node --test: every Node option that loads code, opens a debugger or evaluates text.
  ['node --test --import=./evil.mjs', '--import=./evil.mjs'],
  ['node --test --import ./evil.mjs', '--import'],
  ['node --test --IMPORT=./evil.mjs', '--IMPORT'],
  ['node --test --require=./evil.js', '--require=./evil.js'],
  ['node --test --require ./evil.js', '--require'],
  ['node --test -r ./evil.js', '-r'],
  ['node --test --loader ./evil.mjs', '--loader'],
  ['node --test --experimental-loader=./evil.mjs', '--experimental-loader=./evil.mjs'],
  ['node --test --inspect', '--inspect'],
  ['node --test --inspect=0.0.0.0:9229', '--inspect=0.0.0.0:9229'],
  ['node --test --inspect-brk', '--inspect-brk'],
  ['node --test --eval 1', '--eval'],
  ['node --test -e 1', '-e'],
  ['node --test -p 1', '-p'],
  ['node --test --env-file=.env', '--env-file=.env'],
  ['node --test --test-reporter=./evil.mjs', 'accepts only'],
  ['node --test --test-reporter ./evil.mjs', 'accepts only'],
  ['node --test --test-reporter-destination=/tmp/out', '--test-reporter-destination'],
  ['node --test --test-name-pattern', 'needs a value'],
  ['node --test ../outside/x.test.js', '..'],
  // vitest and jest: configs, roots, setup files and reporters are code or move the project.
  ['npx vitest run --config /tmp/evil.config.ts', '--config'],
  ['npx vitest run --config=/tmp/evil.config.ts', '--config=/tmp/evil.config.ts'],
  ['npx vitest run -c /tmp/evil.config.ts', '-c'],
  ['npx vitest run --Config=/tmp/evil.config.ts', '--Config'],
  ['npx vitest run --root /tmp/evil', '--root'],
  ['npx vitest run --root=/tmp/evil', '--root=/tmp/evil'],
  ['npx vitest run -r /tmp/evil', '-r'],
  ['npx vitest run --dir /tmp/evil', '--dir'],
  ['npx vitest run --reporter=./evil.js', 'accepts only'],
  ['npx vitest run --reporter ./evil.js', 'accepts only'],
  ['npx vitest run --globalSetup=./evil.ts', '--globalSetup'],
  ['npx vitest run --setupFiles ./evil.ts', '--setupFiles'],
  ['npx vitest run --environment=./evil.ts', '--environment'],
  ['npx vitest run --import=./evil.mjs', '--import'],
  ['npx vitest run --require ./evil.js', '--require'],
  ['npx vitest run --inspect', '--inspect'],
  ['npx vitest run --api', '--api'],
  ['npx vitest run -t', 'needs a value'],
  ['npx vitest run -t --import=./evil.mjs', 'needs a value'],
  ['npx vitest run --bail=all', 'positive whole number'],
  ['npx vitest run --silent=yes', 'takes no value'],
  ['npx vitest run init', 'vitest command'],
  ['npx vitest run -- --config=/tmp/x', '"--"'],
  ['npx jest --config /tmp/evil.js', '--config'],
  ['npx jest -c /tmp/evil.js', '-c'],
  ['npx jest --rootDir=/tmp/evil', '--rootDir'],
  ['npx jest --setupFiles ./evil.js', '--setupFiles'],
  ['npx jest --testRunner=./evil.js', '--testRunner'],
  ['npx jest --reporters=./evil.js', '--reporters'],
  // pytest: plugins, ini overrides, roots, argument files.
  ['python -m pytest -p evil_plugin', '-p'],
  ['python -m pytest -p=evil_plugin', '-p=evil_plugin'],
  ['python -m pytest -pevil_plugin', '-pevil_plugin'],
  ['python -m pytest -P', '-P'],
  ['python -m pytest -c /tmp/pytest.ini', '-c'],
  ['python -m pytest --rootdir=/tmp/evil', '--rootdir=/tmp/evil'],
  ['python -m pytest --rootdir /tmp/evil', '--rootdir'],
  ['python -m pytest --confcutdir=/tmp', '--confcutdir=/tmp'],
  ['python -m pytest -o addopts=-pevil', '-o'],
  ['python -m pytest --override-ini=addopts=-pevil', '--override-ini'],
  ['python -m pytest --pyargs evil', '--pyargs'],
  ['python -m pytest --basetemp=/tmp/evil', '--basetemp'],
  ['python -m pytest -K', '-K'],
  ['python -m pytest -X', '-X'],
  ['python -m pytest --tb=evil', 'accepts only'],
  ['python -m pytest --maxfail=1e9', 'positive whole number'],
  ['python -m pytest @args.txt', '"@"'],
  ['python -X importtime -m pytest', 'not an allowed command'],
  ['pytest -p evil_plugin', '-p'],
  ['python3 -m pytest -p evil_plugin', '-p'],
  ['pnpm exec vitest run --config=/tmp/evil.config.ts', '--config'],
  ['pytest --rootdir=/tmp/evil', '--rootdir'],
  // An entry without a grammar permits itself and nothing more.
  ['node scripts/check.js --inspect', 'nothing more'],
  ['node scripts/check.js extra', 'nothing more'],
];

/** Legitimate commands, and the positionals the caller will confine to the workspace. */
const LEGITIMATE: [string, string[]][] = [
  ['npm test', []],
  ['npm test --', []],
  ['npm test -- src/auth/refresh.test.ts', ['src/auth/refresh.test.ts']],
  ['npm test -- auth login', ['auth', 'login']],
  ['npm test -- test/a.test.ts:12', ['test/a.test.ts:12']],
  ['npm run test:unit', []],
  ['npm run test:unit -- test/unit/foo.test.ts', ['test/unit/foo.test.ts']],
  ['pnpm test src/a.test.ts', ['src/a.test.ts']],
  ['pnpm test -- src/a.test.ts', ['src/a.test.ts']],
  ['yarn test src/a.test.ts', ['src/a.test.ts']],
  ['node --test', []],
  ['node --test test/a.test.js test/b.test.js', ['test/a.test.js', 'test/b.test.js']],
  ['node --test --test-name-pattern=refresh test/', ['test/']],
  ['node --test --test-name-pattern "rotates a token"', []],
  ['node --test --test-reporter=dot --test-only', []],
  ['npx vitest run', []],
  ['npx vitest run test/unit/x.test.ts', ['test/unit/x.test.ts']],
  ['npx vitest run -t "rotates a token"', []],
  ['npx vitest run -t=-negative', []],
  ['npx vitest run --testNamePattern=refresh src', ['src']],
  ['npx vitest run --reporter=dot', []],
  ['npx vitest run --reporter verbose --bail=1 --silent --passWithNoTests', []],
  ['npx vitest run "test/a b.test.ts"', ['test/a b.test.ts']],
  ['npx jest auth --ci -t refresh', ['auth']],
  ['pnpm exec vitest run src/a.test.ts --reporter=dot', ['src/a.test.ts']],
  ['python3 -m pytest tests -q', ['tests']],
  ['npx jest --runInBand --verbose --bail', []],
  ['python -m pytest', []],
  ['python -m pytest tests/test_auth.py::test_refresh -x -q', ['tests/test_auth.py::test_refresh']],
  ['python -m pytest -k "refresh and not slow" -v --tb=short --maxfail=2', []],
  ['pytest -vv tests/', ['tests/']],
  ['pytest -m slow --lf --no-header', []],
  ['node scripts/check.js', []],
];

describe('checkAllowed: an allow entry runs no code of the model’s choosing (issue 20, item 1)', () => {
  it.each(ATTACKS)('[allow-exact] %j is refused, naming %j', (command, fragment) => {
    const decision = decide(command);
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.reason).toContain(fragment);
  });

  it.each(LEGITIMATE)('[allow-exact] %j is allowed, its positionals %j left to confine', (command, paths) => {
    expect(decide(command)).toMatchObject({ ok: true, paths });
  });

  it('[allow-exact] a refusal names the argument, why, and what the entry permits', () => {
    const decision = decide('npm test --script-shell=/tmp/evil');
    expect(decision).toEqual({
      ok: false,
      reason:
        'argument "--script-shell=/tmp/evil" is an option this entry does not permit (npm would read it itself); "npm test" permits exactly "npm test", or "npm test -- <args>", where each argument after "--" is a test file, folder or name filter inside the workspace (no options)',
    });
    const exact = decide('node scripts/check.js --inspect');
    expect(exact).toEqual({ ok: false, reason: '"node scripts/check.js" permits exactly "node scripts/check.js" and nothing more, and "--inspect" follows it' });
  });

  it('[allow-exact] an entry is matched token for token, the longest permitting one wins', () => {
    expect(checkAllowed(argv('npm test'), ['npm test'])).toEqual({ ok: true, entry: 'npm test', paths: [] });
    expect(checkAllowed(argv("npm 'test'"), ['npm test'])).toMatchObject({ ok: true });
    expect(checkAllowed(argv('"npm test"'), ['npm test']).ok).toBe(false);
    expect(checkAllowed(argv('npm testx'), ['npm test']).ok).toBe(false);
    expect(checkAllowed(argv('npm'), ['npm test']).ok).toBe(false);
    expect(checkAllowed(argv('node'), ['node']).ok).toBe(true);
    // A bare program permits only itself: "node" is not "node <anything>".
    expect(checkAllowed(argv('node -e 1'), ['node']).ok).toBe(false);
    expect(checkAllowed(argv('npx vitest run a.test.ts'), ['npx vitest', 'npx vitest run'])).toMatchObject({ ok: true, entry: 'npx vitest run', paths: ['a.test.ts'] });
    expect(checkAllowed(argv('npm test -- --x'), ['npm test -- --x'])).toMatchObject({ ok: true, entry: 'npm test -- --x' });
    expect(checkAllowed([], ['npm test']).ok).toBe(false);
    expect(checkAllowed(argv('npm test'), []).ok).toBe(false);
  });

  it('[allow-exact] the figures: every attack refused, every legitimate command allowed', () => {
    const refused = ATTACKS.filter(([c]) => !decide(c).ok).length;
    const allowed = LEGITIMATE.filter(([c]) => decide(c).ok).length;
    console.log(`[allow-exact] attacks tried ${ATTACKS.length}, refused ${refused}; legitimate tried ${LEGITIMATE.length}, allowed ${allowed}`);
    expect([refused, allowed]).toEqual([ATTACKS.length, LEGITIMATE.length]);
  });
});

describe('entryPermits', () => {
  it.each<[string, string]>([
    ['npm test', 'exactly "npm test", or "npm test -- <args>", where each argument after "--" is a test file, folder or name filter inside the workspace (no options)'],
    ['pnpm test', 'exactly "pnpm test", or "pnpm test" followed by test files, folders or name filters inside the workspace (no options), optionally after "--"'],
    ['node --test', 'exactly "node --test", or "node --test" followed by test files, folders or name filters inside the workspace and only these node --test options: --test, --test-name-pattern <pattern>, --test-only, --test-reporter=<spec|tap|dot|junit|lcov>'],
    ['node scripts/check.js', 'exactly "node scripts/check.js" and nothing more'],
    ['cargo test', 'exactly "cargo test" and nothing more'],
    ['npm install', 'exactly "npm install" and nothing more'],
  ])('[allow-exact] %j permits %s', (entry, permits) => {
    expect(entryPermits(entry)).toBe(permits);
  });
});
