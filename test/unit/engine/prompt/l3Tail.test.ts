import { describe, expect, it } from 'vitest';
import { l3Reserve, l3Text, statusLine } from '../../../../engine/prompt/l3Tail';

const counted: string[] = [];
const chars = { text: (s: string) => (counted.push(s), s.length) };

describe('[L3-tail] the volatile tail', () => {
  it.each([
    [1, 0, 'implement', 'Generation 1 · 0% of budget · phase implement'],
    [3, 0.456, 'verify', 'Generation 3 · 46% of budget · phase verify'],
    [12, 1.2, 'explore', 'Generation 12 · 120% of budget · phase explore'],
  ])('[L3-tail] generation %i at %d of the budget in %s', (generation, utilization, phase, line) => {
    expect(statusLine(generation, utilization, phase)).toBe(line);
  });

  it.each([
    ['', 'S', 'S\n'],
    ['turn 7', 'S', 'turn 7\nS\n'],
  ])('[L3-tail] input %j then the status line', (input, status, text) => {
    expect(l3Text(input, status)).toBe(text);
  });

  it('[L3-tail] [tokens-within-budget] the reserve counts the framing, the input and the widest status line, so any status this phase can show fits', () => {
    counted.length = 0;
    const reserve = l3Reserve(chars, 'turn 7', 'implement');
    expect(counted).toHaveLength(3);
    expect(counted[0]).toBe('<constraints>\n</constraints>\n<context>\n</context>\n<now>\n</now>\n');
    expect(counted[1]).toBe('turn 7');
    expect(counted[2]).toBe(statusLine(9999, 10, 'implement'));
    expect(reserve).toBe(counted.reduce((n, s) => n + s.length, 0) + 2);
    for (const [g, u] of [[1, 0], [42, 0.87], [9999, 9.99]] as const) expect(statusLine(g, u, 'implement').length).toBeLessThanOrEqual(counted[2]!.length);
    expect(l3Text('turn 7', statusLine(1, 0.5, 'implement')).length).toBeLessThanOrEqual(reserve);
  });
});
