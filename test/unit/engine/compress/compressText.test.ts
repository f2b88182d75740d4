import { describe, expect, it } from 'vitest';
import { compressText } from '../../../../engine/compress/compressText';
import { extractSignals } from '../../../../engine/compress/extractSignals';
import { authTranscript, lumpy, npmTestOutput, pytestFailure, quarter, randomText, transcriptText, vitestFailure, wordish } from './fixtures';
import { hasLoneSurrogate, intIn, seededRandom } from '../../../support/seededRandom';

const MARKER = /^\[… (\d+) lines \/ ~\d+ tokens omitted by compression …\]$/;
const SYNTHETIC = /^(paths|symbols): /;
const counters = [
  ['chars/4', quarter],
  ['word-ish', wordish],
  ['lumpy', lumpy],
] as const;

/** Every output line is a marker, a synthetic names line naming input names, or a verbatim input line. */
function expectVerbatim(input: string, output: string) {
  const inputLines = new Set(input.split('\n'));
  const signals = extractSignals(input);
  for (const line of output.split('\n')) {
    const names = SYNTHETIC.exec(line);
    if (MARKER.test(line)) continue;
    if (names) {
      const known = names[1] === 'paths' ? signals.paths : signals.symbols;
      for (const name of line.slice(names[0].length).split(', ')) expect(known).toContain(name);
      continue;
    }
    expect(inputLines.has(line), `not an input line: ${JSON.stringify(line)}`).toBe(true);
  }
}

describe('[compress-fit] a text that fits comes back unchanged', () => {
  it.each([
    ['npm test output', npmTestOutput],
    ['pytest failure', pytestFailure],
    ['empty', ''],
  ])('%s', (_name, text) => {
    for (const [, count] of counters) expect(compressText(text, count(text), count)).toEqual({ text, tokens: count(text), lossy: false });
  });
});

describe('[compress-meaning] Good, not Bad: compression keeps path, root cause, verification and open risk', () => {
  const text = transcriptText(authTranscript);
  it.each([
    ['chars/4', 400, quarter],
    ['chars/4', 250, quarter],
    ['word-ish', 700, wordish],
  ] as const)('%s to %d tokens', (_name, target, count) => {
    const out = compressText(text, target, count);
    expect(count(text)).toBeGreaterThan(target * 3);
    expect(out.lossy).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(target);
    expect(out.tokens).toBe(count(out.text));
    expect(out.text).toContain('src/auth/refresh.ts');
    expect(out.text).toMatch(/Root cause: .*seconds/);
    expect(out.text).toContain('npm test -- test/auth');
    expect(out.text).toContain('Open risk: src/mobile/authBridge.ts still compares seconds; untested.');
    expect(out.text).toMatch(/omitted by compression/);
    expect(out.text.split('\n')[0]).toBe('[user]');
    expectVerbatim(text, out.text);
  });

  it('stays an extract within the target when the whole costs more than its parts', () => {
    const out = compressText(text, 500, lumpy);
    expect(out.tokens).toBeLessThanOrEqual(500);
    expect(out.text).toMatch(/omitted by compression/);
    expect(out.text).toContain('Open risk: src/mobile/authBridge.ts still compares seconds; untested.');
    expectVerbatim(text, out.text);
  });

  it('one noisy kind cannot starve the others', () => {
    const noisy = [
      'Nightly run',
      ...Array.from({ length: 200 }, (_, i) => ` FAIL  test/widgets/panel${i}.test.ts > renders`),
      'Root cause: the snapshot serializer changed its quoting.',
      '$ npx vitest run test/widgets -u',
      'TODO: re-review the updated snapshots by hand',
    ].join('\n');
    const out = compressText(noisy, 300, quarter).text;
    expect(out).toContain('Root cause: the snapshot serializer changed its quoting.');
    expect(out).toContain('$ npx vitest run test/widgets -u');
    expect(out).toContain('TODO: re-review the updated snapshots by hand');
  });
});

describe('[compress-budget] random texts and targets', () => {
  const rand = seededRandom(20240611);
  const cases = Array.from({ length: 300 }, (_, i) => {
    const text = randomText(rand);
    const [, count] = counters[i % counters.length] ?? counters[0];
    return { i, text, count, target: intIn(rand, 0, count(text) + 10) };
  });

  it.each(cases)('case %#: never over target, exact count, deterministic, verbatim', ({ text, count, target }) => {
    const out = compressText(text, target, count);
    expect(out.tokens).toBeLessThanOrEqual(target);
    expect(out.tokens).toBe(count(out.text));
    expect(compressText(text, target, count)).toEqual(out);
    expect(out.lossy).toBe(count(text) > target);
    expect(hasLoneSurrogate(out.text)).toBe(hasLoneSurrogate(text));
    if (!out.lossy || text.startsWith(out.text)) return;
    expectVerbatim(text, out.text);
    const lines = out.text.split('\n').filter((l) => !SYNTHETIC.test(l));
    const omitted = lines.reduce((sum, l) => sum + Number(MARKER.exec(l)?.[1] ?? 0), 0);
    expect(omitted + lines.filter((l) => !MARKER.test(l)).length).toBe(text.split('\n').length);
  });
});

describe('[compress-budget] targets below the marker', () => {
  const text = [vitestFailure, pytestFailure].join('\n');
  it.each([0, 1, 5, 9])('target %d gives the longest fitting prefix', (target) => {
    const out = compressText(text, target, quarter);
    expect(out.lossy).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(target);
    expect(text.startsWith(out.text)).toBe(true);
    if (target > 0) expect(out.text.length).toBeGreaterThan(0);
  });
});
