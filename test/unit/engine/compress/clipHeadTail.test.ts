import { describe, expect, it } from 'vitest';
import { clipHeadTail } from '../../../../engine/compress/clipHeadTail';
import { bigGrep, lumpy, npmTestOutput, pytestFailure, quarter, randomText, vitestFailure, wordish } from './fixtures';
import { hasLoneSurrogate, intIn, seededRandom } from '../../../support/seededRandom';

const MARKER = /\n\[… (\d+) tokens clipped …\]\n/;

/** Splits a clipped text at its marker and checks head, tail and the clipped count against the input. */
function parts(input: string, output: string, count: (t: string) => number) {
  const m = MARKER.exec(output);
  if (!m) throw new Error(`no marker in ${JSON.stringify(output.slice(0, 80))}`);
  const head = output.slice(0, m.index);
  const tail = output.slice(m.index + m[0].length);
  expect(input.startsWith(head)).toBe(true);
  expect(input.endsWith(tail)).toBe(true);
  expect(Number(m[1])).toBe(count(input.slice(head.length, input.length - tail.length)));
  return { head, tail, clipped: Number(m[1]) };
}

describe('[clip-head-tail] oversized items keep a head and a tail', () => {
  it.each([
    ['grep dump', bigGrep, 200],
    ['repeated vitest failure', Array.from({ length: 12 }, () => vitestFailure).join('\n'), 150],
    ['pytest then npm test', `${pytestFailure}\n${bigGrep}\n${npmTestOutput}`, 300],
  ])('%s to %d tokens', (_name, text, target) => {
    const out = clipHeadTail(text, target, quarter);
    const { head, tail, clipped } = parts(text, out.text, quarter);
    expect(out.tokens).toBeLessThanOrEqual(target);
    expect(out.tokens).toBe(quarter(out.text));
    expect(out.clippedTokens).toBe(clipped);
    expect(clipped).toBeGreaterThan(0);
    expect(head.split('\n')[0]).toBe(text.split('\n')[0]);
    expect(tail.split('\n').at(-1)).toBe(text.split('\n').at(-1));
    // Line-rich input is cut at line boundaries: head and tail are whole lines.
    expect(text.startsWith(`${head}\n`)).toBe(true);
    expect(text.endsWith(`\n${tail}`)).toBe(true);
    const share = quarter(head) / (quarter(head) + quarter(tail));
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.75);
  });

  it('returns a text that fits unchanged with nothing clipped', () => {
    expect(clipHeadTail(npmTestOutput, quarter(npmTestOutput), quarter)).toEqual({ text: npmTestOutput, tokens: quarter(npmTestOutput), clippedTokens: 0 });
  });

  it('cuts one long line at character boundaries without splitting a surrogate pair', () => {
    const text = '😀a'.repeat(400);
    for (let target = 12; target < 60; target++) {
      const out = clipHeadTail(text, target, quarter);
      parts(text, out.text, quarter);
      expect(out.tokens).toBeLessThanOrEqual(target);
      expect(hasLoneSurrogate(out.text)).toBe(false);
    }
  });

  it('falls back to a fitting prefix when not even the marker fits', () => {
    const out = clipHeadTail(bigGrep, 4, quarter);
    expect(out.tokens).toBeLessThanOrEqual(4);
    expect(bigGrep.startsWith(out.text)).toBe(true);
    expect(out.text).not.toMatch(MARKER);
  });
});

describe('[clip-head-tail] random texts and targets', () => {
  const rand = seededRandom(77);
  const cases = Array.from({ length: 180 }, (_, i) => {
    const text = randomText(rand);
    const count = [quarter, wordish, lumpy][i % 3] ?? quarter;
    return { text, count, target: intIn(rand, 0, count(text) + 5) };
  });
  it.each(cases)('case %#', ({ text, count, target }) => {
    const out = clipHeadTail(text, target, count);
    expect(out.tokens).toBeLessThanOrEqual(target);
    expect(out.tokens).toBe(count(out.text));
    expect(clipHeadTail(text, target, count)).toEqual(out);
    if (!hasLoneSurrogate(text)) expect(hasLoneSurrogate(out.text)).toBe(false);
    if (out.clippedTokens === 0) expect(out.text).toBe(text);
    else if (MARKER.test(out.text)) expect(parts(text, out.text, count).clipped).toBe(out.clippedTokens);
    else expect(text.startsWith(out.text)).toBe(true);
  });
});
