/** Realistic worker material for the compression tests: tool output and assistant prose as agents produce them. */
import { intIn, pick } from '../../../support/seededRandom';

/** One message of a worker's conversation, as the worker's model saw it. */
export interface TranscriptMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
}

/** The stand-in tokenizer of the brief: about four characters a token. */
export const quarter = (t: string): number => Math.ceil(t.length / 4);

/** A second, non-additive counter: runs of word characters and single other characters. */
export const wordish = (t: string): number => t.match(/\w+|[^\w\s]|\s+/g)?.length ?? 0;

/** An adversarial counter: many lines cost more together than apart, so sums of parts underestimate the whole. */
export const lumpy = (t: string): number => Math.ceil(t.length / 4) + Math.floor((t.split('\n').length - 1) ** 2 / 8);

export const grepDump = [
  '$ rg -n "refreshToken" src test',
  'src/auth/refresh.ts:14:export async function refreshToken(session: Session): Promise<Token> {',
  'src/auth/refresh.ts:31:  const expiresAt = session.token.exp * 1000; // TODO: is exp in seconds everywhere?',
  "src/auth/session.ts:8:import { refreshToken } from './refresh';",
  'src/api/client.ts:52:      const next = await refreshToken(this.session);',
  "test/auth/refresh.test.ts:5:import { refreshToken } from '../../src/auth/refresh';",
].join('\n');

export const vitestFailure = [
  ' FAIL  test/auth/refresh.test.ts > refreshToken > refreshes a token inside the skew window',
  'AssertionError: expected false to be true // Object.is equality',
  '',
  ' ❯ test/auth/refresh.test.ts:42:31',
  '     40|     const session = makeSession({ exp: nowSeconds() + 20 });',
  '     41|     const result = await refreshToken(session);',
  '     42|     expect(result.refreshed).toBe(true);',
  '       |                               ^',
  '',
  ' Test Files  1 failed | 3 passed (4)',
  '      Tests  1 failed | 17 passed (18)',
].join('\n');

export const pytestFailure = [
  '$ pytest tests/test_billing.py -q',
  'F.                                                                       [100%]',
  '=================================== FAILURES ===================================',
  '____________________________ test_invoice_rounding _____________________________',
  '',
  '    def test_invoice_rounding():',
  '        invoice = build_invoice([LineItem("seat", Decimal("19.999"), 3)])',
  '>       assert invoice.total == Decimal("60.00")',
  "E       AssertionError: assert Decimal('59.997') == Decimal('60.00')",
  '',
  'Traceback (most recent call last):',
  '  File "/srv/app/billing/invoice.py", line 42, in total',
  '    return sum(item.amount for item in self.items).quantize(CENTS)',
  'tests/test_billing.py:18: AssertionError',
  '=========================== short test summary info ============================',
  "FAILED tests/test_billing.py::test_invoice_rounding - AssertionError: assert Decimal('59.997') == Decimal('60.00')",
  '1 failed, 1 passed in 0.12s',
].join('\n');

export const rootCauseMessage = [
  'Root cause: `refreshToken()` in src/auth/refresh.ts compared `session.token.exp` (seconds) with `Date.now()` (milliseconds), so tokens inside the 30 s skew window were never refreshed.',
  'Fix: convert exp to milliseconds once in `toExpiryMs()` and use it in src/auth/refresh.ts and src/auth/session.ts instead of multiplying at each call site.',
  'Open risk: src/mobile/authBridge.ts still compares seconds; untested.',
].join('\n');

export const npmTestOutput = [
  '$ npm test -- test/auth',
  '',
  '> strata-demo@1.0.0 test',
  '> vitest run test/auth',
  '',
  ' ✓ test/auth/session.test.ts (6 tests) 12ms',
  ' ✓ test/auth/refresh.test.ts (5 tests) 9ms',
  '',
  ' Test Files  4 passed (4)',
  '      Tests  18 passed (18)',
  '   Duration  412ms',
].join('\n');

/** A long, noisy exploration dump: the kind of material compression exists to shed. */
export const bigGrep = Array.from({ length: 160 }, (_, i) => `src/ui/widgets/panel${i % 23}.tsx:${10 + i}:  const label${i} = format(value${i}, options);`).join('\n');

/** A worker's auth-fix session, from the user's request to the final verified answer. */
export const authTranscript: TranscriptMessage[] = [
  { role: 'user', content: 'Tokens expiring inside the 30 s skew window are not refreshed; users get logged out. Fix it. Do not change the public API of src/auth/session.ts.' },
  { role: 'assistant', content: 'Searching for refreshToken usages.' },
  { role: 'tool', content: grepDump },
  { role: 'tool', content: bigGrep },
  { role: 'assistant', content: 'Running the auth tests to reproduce.' },
  { role: 'tool', content: vitestFailure },
  { role: 'assistant', content: rootCauseMessage },
  { role: 'tool', content: npmTestOutput },
  {
    role: 'assistant',
    content: [
      'Fixed the skew-window refresh bug in src/auth/refresh.ts. Verified with `npm test -- test/auth`: 18 passed.',
      'Root cause: exp (seconds) was compared with Date.now() (milliseconds).',
      'Open risk: src/mobile/authBridge.ts still compares seconds; untested.',
    ].join('\n'),
  },
];

/** The transcript as one text, the way a raw_history item holds it. */
export const transcriptText = (messages: readonly TranscriptMessage[]): string => messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');

const realisticLines = [grepDump, vitestFailure, pytestFailure, rootCauseMessage, npmTestOutput].flatMap((t) => t.split('\n'));
const words = ['token', 'refresh', 'src/auth/refresh.ts', 'must', 'TODO', 'FAIL', 'because', 'ok', '✓', '…', '😀', '𝔘', 'ñ', 'x', '$', '`id`', 'C:\\x\\y.cs:3'];

/** A random text of realistic and garbage lines: blank lines, long lines, astral characters, CRLF. */
export function randomText(rand: () => number): string {
  const lines = Array.from({ length: intIn(rand, 1, 60) }, () => {
    const shape = rand();
    if (shape < 0.45) return pick(rand, realisticLines);
    if (shape < 0.55) return '';
    if (shape < 0.6) return `${pick(rand, realisticLines)}\r`;
    const n = shape < 0.9 ? intIn(rand, 1, 12) : intIn(rand, 40, 200);
    return Array.from({ length: n }, () => pick(rand, words)).join(pick(rand, [' ', '', ' · ']));
  });
  return lines.join('\n');
}
