import { describe, expect, it } from 'vitest';
import { compileGlob, matchGlob } from '../../../../engine/skills/matchGlob';
import { builtinSelectors, turnLanguages } from '../../../../engine/skills/selectors';
import type { SelectionContext } from '../../../../engine/skills/SkillSelector';
import { stemWord } from '../../../../engine/skills/taskWords';
import { turn } from './skillFixtures';

function matches(glob: string, path: string): boolean {
  const re = compileGlob(glob);
  if (!(re instanceof RegExp)) throw new Error(re.error);
  return matchGlob(path, re);
}

/** Parse `params` with the built-in type's schema and match it against `context`. */
function selects(type: string, params: Record<string, unknown>, context: SelectionContext): boolean {
  const definition = builtinSelectors[type];
  if (!definition) throw new Error(`no built-in ${type}`);
  const parsed = definition.schema.safeParse(params);
  if (!parsed.success) throw new Error(parsed.error.message);
  return definition.matches(parsed.data, context);
}

describe('compileGlob / matchGlob', () => {
  it.each([
    ['**/*.ts', 'index.ts', true],
    ['**/*.ts', 'src/a/b/index.ts', true],
    ['**/*.ts', 'src/index.tsx', false],
    ['**/*.{ts,tsx}', 'src/App.tsx', true],
    ['src/*.py', 'src/main.py', true],
    ['src/*.py', 'src/pkg/main.py', false],
    ['*.py', 'src/main.py', false],
    ['src/**', 'src/a/b.txt', true],
    ['src/**', 'lib/a.txt', false],
    ['**/tests/**', 'pkg/tests/test_a.py', true],
    ['**/tests/**', 'tests/unit/test_a.py', true],
    ['**/test_*.py', 'tests/test_parser.py', true],
    ['**/test_*.py', 'tests/parser_test.py', false],
    ['**/*.test.ts', 'test/unit/a.test.ts', true],
    ['file?.md', 'file1.md', true],
    ['file?.md', 'file10.md', false],
    ['[!a]*.md', 'b.md', true],
    ['[!a]*.md', 'a.md', false],
    ['**/tsconfig*.json', 'tsconfig.engine.json', true],
    ['./src/*.ts', 'src/a.ts', true],
    ['src/*.ts', './src/a.ts', true],
    ['src/*.ts', 'src\\a.ts', true],
    ['a+b(c).ts', 'a+b(c).ts', true],
    ['**/*.ts', 'SRC/A.TS', false],
  ])('[skill-select] %s against %s -> %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  it.each(['src/{a,b', 'src/[abc'])('[skill-errors] %s is not a glob', (glob) => {
    const result = compileGlob(glob);
    expect(result).toEqual({ error: expect.stringContaining(glob) });
  });
});

describe('stemWord', () => {
  it.each([
    ['tests', 'test'], ['testing', 'test'], ['tested', 'test'], ['commits', 'commit'], ['committed', 'commit'],
    ['branches', 'branch'], ['change', 'chang'], ['changes', 'chang'], ['class', 'class'], ['git', 'git'], ['running', 'run'],
  ])('[skill-select] %s -> %s', (word, stem) => {
    expect(stemWord(word)).toBe(stem);
  });
});

describe('built-in selectors', () => {
  it('[skill-select] language: languages come from the turn and from file extensions', () => {
    expect([...turnLanguages(turn({ languages: ['TypeScript'], files: ['a/b.py', 'README', 'x.tsx'] }))].sort()).toEqual(['python', 'typescript']);
    const both = turn({ files: ['src/a.ts', 'worker/b.py'] });
    expect(selects('language', { any: ['python'] }, both)).toBe(true);
    expect(selects('language', { all: ['typescript', 'python'] }, both)).toBe(true);
    expect(selects('language', { all: ['typescript', 'python'] }, turn({ files: ['src/a.ts'] }))).toBe(false);
    expect(selects('language', { any: ['go'] }, both)).toBe(false);
  });

  it('[skill-select] path: any file of the turn matches any glob', () => {
    expect(selects('path', { globs: ['**/*.py', 'docs/**'] }, turn({ files: ['README.md', 'docs/x.md'] }))).toBe(true);
    expect(selects('path', { globs: ['**/*.py'] }, turn({ files: ['README.md'] }))).toBe(false);
    expect(selects('path', { globs: ['**/*.py'] }, turn({ files: [] }))).toBe(false);
  });

  it('[skill-select] keyword: words of the task, inflections agree, substrings do not count', () => {
    const params = { any: ['test', 'regression'] };
    expect(selects('keyword', params, turn({ task: 'Add tests for the parser' }))).toBe(true);
    expect(selects('keyword', params, turn({ task: 'Testing the REGRESSION' }))).toBe(true);
    expect(selects('keyword', params, turn({ task: 'Use the latest contest build' }))).toBe(false);
    expect(selects('keyword', { any: ['pull request'] }, turn({ task: 'Open a pull-request' }))).toBe(true);
    expect(selects('keyword', { any: ['pull request'] }, turn({ task: 'pull the branch, then request review' }))).toBe(false);
    expect(selects('keyword', { any: ['release', 'changelog'], min: 2 }, turn({ task: 'cut a release' }))).toBe(false);
    expect(selects('keyword', { any: ['release', 'changelog'], min: 2 }, turn({ task: 'changelog for the release' }))).toBe(true);
  });

  it('[skill-select] role and phase: exact, case-insensitive', () => {
    expect(selects('role', { any: ['worker', 'test'] }, turn({ role: 'Test' }))).toBe(true);
    expect(selects('role', { any: ['test'] }, turn({ role: 'tester' }))).toBe(false);
    expect(selects('phase', { any: ['verify'] }, turn({ phase: 'verify' }))).toBe(true);
    expect(selects('phase', { any: ['verify'] }, turn({ phase: 'plan' }))).toBe(false);
  });

  it.each([
    ['language', {}],
    ['language', { any: [] }],
    ['path', { glob: '**/*.ts' }],
    ['path', { globs: ['src/{a,b'] }],
    ['keyword', { any: ['a'], min: 2 }],
    ['keyword', { any: ['--'] }],
    ['role', { any: 'worker' }],
    ['phase', { any: ['x'], extra: true }],
  ])('[skill-errors] %s refuses params %j', (type, params) => {
    expect(builtinSelectors[type]?.schema.safeParse(params).success).toBe(false);
  });
});
