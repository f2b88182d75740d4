import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs, summarize } from '../../support/concurrentRun.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

describe('concurrentRun: the options', () => {
  it('runs two copies by default and hands everything after -- to each vitest', () => {
    expect(parseArgs([])).toEqual({ copies: 2, keep: false, vitestArgs: [] });
    expect(parseArgs(['--copies', '3', '--keep', '--', 'test/unit', '--copies', '9'])).toEqual({ copies: 3, keep: true, vitestArgs: ['test/unit', '--copies', '9'] });
  });

  it.each([[['--copies', '1']], [['--copies', 'two']], [['--copies', '9']], [['--fast']]])('refuses %j with a message naming the options', (argv) => {
    expect(() => parseArgs(argv)).toThrow(/--copies/);
  });
});

describe('concurrentRun: a report', () => {
  it('counts the tests and names each failure by file, test and the first line of its message', () => {
    const report = {
      numTotalTests: 4,
      numPassedTests: 2,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 0,
      testResults: [
        {
          name: `${root}/test/unit/a.test.ts`,
          status: 'failed',
          assertionResults: [
            { title: 'ok', fullName: 'a ok', status: 'passed' },
            { title: 'waits', fullName: 'a waits', status: 'failed', failureMessages: ['\u001b[31mError: Test timed out in 60000ms.\u001b[39m\n    at x'] },
            { title: 'later', fullName: 'a later', status: 'skipped' },
          ],
        },
        { name: `${root}/test/unit/b.test.ts`, status: 'failed', message: 'Failed to load url ./missing', assertionResults: [] },
        { name: `${root}/test/unit/c.test.ts`, status: 'passed', assertionResults: [{ title: 'fine', fullName: 'c fine', status: 'passed' }] },
      ],
    };
    expect(summarize(report)).toEqual({
      files: 3,
      total: 4,
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: ['test/unit/a.test.ts > a waits: Error: Test timed out in 60000ms.', 'test/unit/b.test.ts: Failed to load url ./missing'],
    });
  });
});
