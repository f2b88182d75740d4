import { describe, expect, it } from 'vitest';
import { capReport, ENTRY_MAX_CHARS, REPORT_LIST_CAPS, REPORT_LIST_FIELDS, SUMMARY_MAX_CHARS, truncateChars, type ParentReport } from '../../../../engine/compress/ParentReport';
import { hasLoneSurrogate } from '../../../support/seededRandom';

const base: ParentReport = {
  taskId: 'auth-fix',
  agentId: 'auth-2',
  status: 'done',
  summary: 'Fixed the skew-window refresh in src/auth/refresh.ts.',
  files: ['src/auth/refresh.ts'],
  symbols: ['refreshToken'],
  decisions: ['Root cause: exp (seconds) compared with Date.now() (milliseconds).'],
  failures: [],
  verification: ['$ npm test -- test/auth', 'Tests  18 passed (18)'],
  risks: ['src/mobile/authBridge.ts still compares seconds; untested.'],
  openQuestions: [],
};

describe('[report-caps] capReport', () => {
  it('uses the caps of the spec and the brief', () => {
    expect(SUMMARY_MAX_CHARS).toBe(1200);
    expect(ENTRY_MAX_CHARS).toBe(300);
    expect(REPORT_LIST_CAPS).toEqual({ files: 30, symbols: 30, decisions: 12, failures: 12, verification: 12, risks: 12, openQuestions: 12 });
  });

  it('leaves a report within every cap unchanged', () => {
    expect(capReport(base)).toEqual(base);
  });

  it('caps the summary at 1200 characters, marked by …', () => {
    const capped = capReport({ ...base, summary: `src/auth/refresh.ts ${'x'.repeat(5000)}` }).summary;
    expect(capped).toHaveLength(SUMMARY_MAX_CHARS);
    expect(capped.endsWith('…')).toBe(true);
    expect(capped.startsWith('src/auth/refresh.ts ')).toBe(true);
  });

  it.each(REPORT_LIST_FIELDS)('caps %s by count and entry length', (field) => {
    const cap = REPORT_LIST_CAPS[field];
    const entries = Array.from({ length: cap + 10 }, (_, i) => `${field} entry ${i} ${'y'.repeat(500)}`);
    const list = capReport({ ...base, [field]: entries })[field];
    expect(list).toHaveLength(cap);
    expect(list.at(-1)).toBe('… 11 more');
    expect(list[0]?.startsWith(`${field} entry 0 `)).toBe(true);
    for (const entry of list) expect(entry.length).toBeLessThanOrEqual(ENTRY_MAX_CHARS);
    for (const entry of list.slice(0, -1)) expect(entry.endsWith('…')).toBe(true);
  });

  it('makes entries single-line and drops blank and duplicate entries', () => {
    const capped = capReport({ ...base, failures: ['  FAIL a.test.ts\n  expected 1 ', '', '   ', 'FAIL a.test.ts expected 1'] });
    expect(capped.failures).toEqual(['FAIL a.test.ts expected 1']);
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(400);
    const capped = capReport({ ...base, summary: emoji, risks: [emoji] });
    expect(hasLoneSurrogate(capped.summary)).toBe(false);
    expect(hasLoneSurrogate(capped.risks[0] ?? '')).toBe(false);
    expect(capped.summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(truncateChars('a😀b', 3)).toBe('a…');
  });

  it('is idempotent and does not mutate its input', () => {
    const big: ParentReport = { ...base, summary: 'z'.repeat(3000), files: Array.from({ length: 80 }, (_, i) => `src/f${i}.ts`), decisions: ['d'.repeat(900)] };
    const copy = structuredClone(big);
    const once = capReport(big);
    expect(capReport(once)).toEqual(once);
    expect(big).toEqual(copy);
  });
});
