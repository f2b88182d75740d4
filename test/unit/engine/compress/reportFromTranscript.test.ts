import { describe, expect, it } from 'vitest';
import { capReport, REPORT_LIST_CAPS, SUMMARY_MAX_CHARS } from '../../../../engine/compress/ParentReport';
import { renderReport, reportFromTranscript, type TranscriptInput } from '../../../../engine/compress/reportFromTranscript';
import { authTranscript, bigGrep, grepDump, npmTestOutput, pytestFailure } from './fixtures';

const BAD = 'Authentication was changed and tests were done.';
const auth: TranscriptInput = { taskId: 'auth-fix', agentId: 'auth-2', status: 'done', transcript: authTranscript };

describe('[compress-meaning] a parent report names what changed, why, how it was verified and what is open', () => {
  const r = reportFromTranscript(auth);

  it('summary: the outcome, the root cause and the exact path, never the vague form', () => {
    expect(r.summary).not.toBe(BAD);
    expect(r.summary).toContain('src/auth/refresh.ts');
    expect(r.summary).toMatch(/Root cause: .*seconds.*milliseconds/);
    expect(r.summary.startsWith('Fixed the skew-window refresh bug in src/auth/refresh.ts.')).toBe(true);
  });

  it('lists: files without line suffixes, the root cause, the verification command and result, the open risk', () => {
    expect(r.files.slice(0, 3)).toEqual(['src/auth/session.ts', 'src/auth/refresh.ts', 'src/mobile/authBridge.ts']);
    expect(r.files.every((f) => !/:\d+$/.test(f))).toBe(true);
    expect(r.symbols).toEqual(expect.arrayContaining(['refreshToken', 'toExpiryMs', 'session.token.exp']));
    expect(r.decisions[0]).toMatch(/^Root cause: `refreshToken\(\)` in src\/auth\/refresh.ts/);
    expect(r.verification).toEqual(expect.arrayContaining(['$ npm test -- test/auth', 'Tests  18 passed (18)']));
    expect(r.failures).toContain('AssertionError: expected false to be true // Object.is equality');
    expect(r.risks).toEqual(['Open risk: src/mobile/authBridge.ts still compares seconds; untested.']);
  });

  it('a vague final message still yields a summary naming the files', () => {
    const vague = reportFromTranscript({
      ...auth,
      transcript: [
        { role: 'tool', content: grepDump },
        { role: 'tool', content: npmTestOutput },
        { role: 'assistant', content: BAD },
      ],
    });
    expect(vague.summary).toBe(`${BAD} Files: src/auth/refresh.ts, src/auth/session.ts, ./refresh, src/api/client.ts, test/auth/refresh.test.ts, ../../src/auth/refresh.`);
  });

  it('a transcript with no outcome at all says so instead of inventing one', () => {
    expect(reportFromTranscript({ ...auth, status: 'blocked', transcript: [{ role: 'user', content: 'Please look.' }] }).summary).toBe(
      'Status blocked; the transcript states no outcome, decision or file.',
    );
  });
});

describe('[report-caps] reports from huge transcripts respect every cap', () => {
  const huge: TranscriptInput = {
    ...auth,
    status: 'failed',
    transcript: [
      ...authTranscript,
      ...Array.from({ length: 40 }, (_, i) => ({ role: 'tool' as const, content: `FAIL test/run${i}.test.ts > case ${i}\n${bigGrep}` })),
      { role: 'assistant', content: `${'Still failing because of the snapshot drift. '.repeat(60)}\nTODO: ${'x'.repeat(900)}` },
    ],
  };
  const r = reportFromTranscript(huge);

  it('keeps the newest failures and counts the older ones', () => {
    expect(r.failures).toHaveLength(REPORT_LIST_CAPS.failures);
    expect(r.failures[0]).toMatch(/^… \d+ earlier$/);
    expect(r.failures.slice(-2)).toEqual(['FAIL test/run39.test.ts > case 39', 'Still failing because of the snapshot drift.']);
  });

  it('is already capped', () => {
    expect(capReport(r)).toEqual(r);
    expect(r.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(r.files).toHaveLength(REPORT_LIST_CAPS.files);
  });
});

describe('[report-render-stable] renderReport', () => {
  const billing: TranscriptInput = {
    taskId: 'billing-7',
    agentId: 'billing-1',
    status: 'partial',
    transcript: [
      { role: 'user', content: 'The invoice total is off by a cent. Never change the public API of billing/invoice.py.' },
      { role: 'tool', content: pytestFailure },
      {
        role: 'assistant',
        content: 'Root cause: `build_invoice` summed unrounded line totals.\nFix: quantize each line with `CENTS` before summing. Should credit notes round the same way?\nTODO: tests/test_credit.py is not yet updated.',
      },
    ],
  };

  it('renders a compact, stable text', () => {
    expect(renderReport(reportFromTranscript(billing))).toBe(
      [
        'Report from billing-1 · task billing-7 · partial',
        'Root cause: `build_invoice` summed unrounded line totals. Fix: quantize each line with `CENTS` before summing. Should credit notes round the same way? Files: billing/invoice.py, tests/test_credit.py, tests/test_billing.py, /srv/app/billing/invoice.py.',
        'Files: billing/invoice.py, tests/test_credit.py, tests/test_billing.py, /srv/app/billing/invoice.py',
        'Symbols: build_invoice, CENTS, test_invoice_rounding, LineItem, Decimal, invoice.total, AssertionError, sum, item.amount, self.items',
        'Decisions:',
        '- Root cause: `build_invoice` summed unrounded line totals.',
        '- Fix: quantize each line with `CENTS` before summing. Should credit notes round the same way?',
        'Failures:',
        '- =================================== FAILURES ===================================',
        '- >       assert invoice.total == Decimal("60.00")',
        "- E       AssertionError: assert Decimal('59.997') == Decimal('60.00')",
        '- Traceback (most recent call last):',
        '- tests/test_billing.py:18: AssertionError',
        "- FAILED tests/test_billing.py::test_invoice_rounding - AssertionError: assert Decimal('59.997') == Decimal('60.00')",
        '- 1 failed, 1 passed in 0.12s',
        'Verification:',
        '- $ pytest tests/test_billing.py -q',
        "- FAILED tests/test_billing.py::test_invoice_rounding - AssertionError: assert Decimal('59.997') == Decimal('60.00')",
        '- 1 failed, 1 passed in 0.12s',
        'Risks:',
        '- TODO: tests/test_credit.py is not yet updated.',
        'Open questions:',
        '- Should credit notes round the same way?',
      ].join('\n'),
    );
  });

  it.each([
    ['auth transcript', auth],
    ['billing transcript', billing],
  ])('%s: the same input always renders byte-identically', (_name, input) => {
    const first = renderReport(reportFromTranscript(input));
    expect(renderReport(reportFromTranscript(structuredClone(input)))).toBe(first);
    expect(renderReport(reportFromTranscript(input))).toBe(first);
    expect(first.split('\n')[0]).toBe(`Report from ${input.agentId} · task ${input.taskId} · ${input.status}`);
  });

  it('renders the capped form of an uncapped report and leaves out empty lists', () => {
    const r = reportFromTranscript(auth);
    const uncapped = { ...r, summary: 's'.repeat(4000), files: Array.from({ length: 90 }, (_, i) => `src/f${i}.ts`), openQuestions: [] };
    const text = renderReport(uncapped);
    expect(text).toBe(renderReport(capReport(uncapped)));
    expect(text).toContain('… 61 more');
    expect(text).not.toContain('Open questions:');
  });
});
