import { describe, expect, it } from 'vitest';
import { extractSignals, signalKindsOf, type SignalKind, type Signals } from '../../../../engine/compress/extractSignals';
import { grepDump, npmTestOutput, pytestFailure, rootCauseMessage, vitestFailure } from './fixtures';

describe('[compress-signals] paths', () => {
  it.each([
    ['edit src/auth/refresh.ts and ./a/b.py', ['src/auth/refresh.ts', './a/b.py']],
    ['at C:\\x\\y.cs:12 in Foo', ['C:\\x\\y.cs:12']],
    ['see https://example.com/a/b.ts and src/a.ts:3:7.', ['src/a.ts:3:7']],
    ['  File "/srv/app/billing/invoice.py", line 42, in total', ['/srv/app/billing/invoice.py']],
    ['updated package.json and README.md, then ../shared/DESIGN.md', ['package.json', 'README.md', '../shared/DESIGN.md']],
    ['FAILED tests/test_billing.py::test_invoice_rounding', ['tests/test_billing.py']],
    ['and/or client/server n/a 2024/01/02 TCP/IP', []],
    ['res.json() returns the body', []],
    ['src/b.ts src/a.ts src/b.ts', ['src/b.ts', 'src/a.ts']],
  ])('%s', (text, expected) => {
    expect(extractSignals(text).paths).toEqual(expected);
  });
});

describe('[compress-signals] symbols', () => {
  it.each([
    ['call refreshToken() then Foo.bar', ['refreshToken', 'Foo.bar']],
    ['the user_id and MAX_RETRIES and __init__', ['user_id', 'MAX_RETRIES', '__init__']],
    ['TokenStore wraps an HTTPClient', ['TokenStore', 'HTTPClient']],
    ['use `exp` here, e.g. not `npm test -- a`', ['exp']],
    ['`Date.now()` vs Date.now() in src/time/clock.ts', ['Date.now']],
    ['Plain English words. Error(s) can happen, i.e. rarely.', []],
    ['see https://docs.python.org/3/library/decimal_context.html', []],
  ])('%s', (text, expected) => {
    expect(extractSignals(text).symbols).toEqual(expected);
  });
});

describe('[compress-signals] line kinds', () => {
  it.each<[string, SignalKind[]]>([
    ['FAILED tests/test_billing.py::test_x - AssertionError', ['failures', 'verification']],
    ['Traceback (most recent call last):', ['failures']],
    ["TypeError: Cannot read properties of undefined (reading 'exp')", ['failures']],
    ['Process exited with code 1', ['failures', 'verification']],
    ['      Tests  18 passed (18)', ['verification']],
    ['0 failed, 12 passed, no errors', ['verification']],
    ['Root cause: exp is in seconds', ['decisions']],
    ['We will use argon2 instead of bcrypt', ['decisions']],
    ['You must not change the public API', ['constraints']],
    ['$ pytest tests -q', ['verification']],
    ['ran `pnpm vitest run test/auth` again', ['verification']],
    ['go test ./... -run TestRefresh', ['verification']],
    ['make sure the cache is warm', []],
    ['TODO: handle clock skew', ['risks']],
    ['The mobile bridge is untested', ['risks']],
    ['Refactored the token store.', []],
  ])('%s', (line, kinds) => {
    expect(signalKindsOf(line)).toEqual(kinds);
  });
});

describe('[compress-signals] realistic dumps', () => {
  const cases: [string, string, Partial<Signals>][] = [
    [
      'pytest failure with traceback',
      pytestFailure,
      {
        paths: ['tests/test_billing.py', '/srv/app/billing/invoice.py', 'tests/test_billing.py:18'],
        verification: ['$ pytest tests/test_billing.py -q', "FAILED tests/test_billing.py::test_invoice_rounding - AssertionError: assert Decimal('59.997') == Decimal('60.00')", '1 failed, 1 passed in 0.12s'],
      },
    ],
    ['npm test output', npmTestOutput, { failures: [], verification: ['$ npm test -- test/auth', '> vitest run test/auth', '✓ test/auth/session.test.ts (6 tests) 12ms', '✓ test/auth/refresh.test.ts (5 tests) 9ms', 'Test Files  4 passed (4)', 'Tests  18 passed (18)'] }],
    ['grep dump', grepDump, { failures: [], risks: ['src/auth/refresh.ts:31:  const expiresAt = session.token.exp * 1000; // TODO: is exp in seconds everywhere?'] }],
    ['root cause message', rootCauseMessage, { paths: ['src/auth/refresh.ts', 'src/auth/session.ts', 'src/mobile/authBridge.ts'], symbols: ['refreshToken', 'session.token.exp', 'Date.now', 'toExpiryMs'], risks: ['Open risk: src/mobile/authBridge.ts still compares seconds; untested.'] }],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    expect(extractSignals(text)).toMatchObject(expected);
  });

  it('finds the failure lines of a vitest report, trimmed and in order', () => {
    expect(extractSignals(vitestFailure).failures).toEqual([
      'FAIL  test/auth/refresh.test.ts > refreshToken > refreshes a token inside the skew window',
      'AssertionError: expected false to be true // Object.is equality',
      'Test Files  1 failed | 3 passed (4)',
      'Tests  1 failed | 17 passed (18)',
    ]);
  });

  it('classifies a long prose line sentence by sentence', () => {
    const filler = 'The session store keeps one record per device and the API layer reads it on every request.';
    const paragraph = `${filler} ${filler} Root cause: the expiry was compared in the wrong unit. ${filler}`;
    expect(extractSignals(paragraph).decisions).toEqual(['Root cause: the expiry was compared in the wrong unit.']);
  });

  it('every list is deduplicated and the result is deterministic', () => {
    const text = [grepDump, vitestFailure, pytestFailure, rootCauseMessage, npmTestOutput, vitestFailure].join('\n');
    const a = extractSignals(text);
    expect(extractSignals(text)).toEqual(a);
    for (const list of Object.values(a)) expect(new Set(list).size).toBe(list.length);
  });
});
