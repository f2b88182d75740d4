import { describe, expect, it } from 'vitest';
import { clockTick } from '../../../../renderer/charts/chartFormat';
import { localTimeFormat, percent, timeOfDay, tokens, usd } from '../../../../renderer/components/format';

describe('percent', () => {
  it.each([
    [0, '0%'],
    [0.934, '93%'],
    [0.5, '50%'],
    [1, '100%'],
    [1.25, '125%'],
  ])('%d -> %s', (ratio, expected) => {
    expect(percent(ratio)).toBe(expected);
  });
});

describe('tokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [999, '999'],
    [1_000, '1k'],
    [1_240, '1.2k'],
    [9_400, '9.4k'],
    [10_000, '10k'],
    [12_600, '13k'],
    [640_000, '640k'],
    [1_000_000, '1M'],
    [1_250_000, '1.25M'],
    [1_500_000, '1.5M'],
    [20_000_000, '20M'],
  ])('%d -> %s', (n, expected) => {
    expect(tokens(n)).toBe(expected);
  });

  // Rounding must not leave a figure like "1000k" on the smaller unit's branch.
  it.each([
    [9_960, '10k'],
    [999_500, '1M'],
  ])('%d rounds up into the next unit -> %s', (n, expected) => {
    expect(tokens(n)).toBe(expected);
  });
});

// The formatters are built once (toLocaleTimeString builds one per call); the text must not change.
describe('timeOfDay and clockTick', () => {
  const instants = [0, 1_700_000_000_000, 1_700_000_000_000 + 12 * 3_600_000 + 5_000, Date.UTC(2026, 0, 5, 23, 59, 59)];

  it.each(instants)('%d reads as toLocaleTimeString would', (ms) => {
    const d = new Date(ms);
    expect(timeOfDay(d.toISOString())).toBe(d.toLocaleTimeString([], { hour12: false }));
    expect(clockTick(ms)).toBe(d.toLocaleTimeString([], { hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' }));
  });

  it('an unreadable time reads "Invalid Date", as before, instead of throwing', () => {
    expect(timeOfDay('not a time')).toBe(new Date('not a time').toLocaleTimeString([], { hour12: false }));
    expect(clockTick(Number.NaN)).toBe('Invalid Date');
    expect(localTimeFormat({ hour12: false })(new Date(Number.NaN))).toBe('Invalid Date');
  });
});

describe('usd', () => {
  it('writes dollars from a dollar up with cents, below with four places, a negative amount with a minus sign, and none as a dash', () => {
    expect([usd(1234.5), usd(0.01234), usd(-0.0022), usd(-2.5), usd(0), usd(-0.00001), usd(null)]).toEqual(['$1,234.50', '$0.0123', '\u2212$0.0022', '\u2212$2.50', '$0.0000', '$0.0000', '—']);
    // Float noise of a sum is rounded away first.
    expect(usd(0.1 + 0.2)).toBe('$0.3000');
  });
});
