import { describe, expect, it } from 'vitest';
import { agentReuse, prefixReuse } from '../../../../engine/metrics/prefixReuse';

describe('[prefix-reuse-def] prefixReuse = LCP bytes with the previous prompt / bytes of this prompt', () => {
  it.each([
    [undefined, 'anything', 0],
    ['', '', 0],
    ['abc', '', 0],
    ['', 'abcd', 0],
    ['abcd', 'abcd', 1],
    ['abcd', 'abcdefgh', 0.5],
    ['abcdefgh', 'abcd', 1],
    ['xbcd', 'abcd', 0],
    // é is C3 A9 and è is C3 A8: the shared lead byte counts, as it would in a byte-level cache.
    ['aé', 'aè', 2 / 3],
    ['世界', '世', 1],
  ] as const)('%j -> %j is %d', (previous, current, reuse) => {
    expect(prefixReuse(previous, current)).toBeCloseTo(reuse, 12);
  });
});

describe('[agent-reuse-def] agentReuse is the byte-weighted mean over calls after the first', () => {
  it.each([
    [[], 0],
    [['only call'], 0],
    [['abcd', 'abcd'], 1],
    [['', ''], 0],
    // (4 + 4) / (8 + 8): call 2 reuses all of call 1, call 3 keeps half of call 2.
    [['abcd', 'abcdefgh', 'abcdWXYZ'], 0.5],
    // Weighting by bytes: a 2-byte call at 0% barely moves a 98-byte call at 100%.
    [['s'.repeat(98), 's'.repeat(98), 'xx'], 98 / 100],
  ])('%j -> %d', (prompts, reuse) => {
    expect(agentReuse(prompts)).toBeCloseTo(reuse, 12);
  });

  it('is not the plain mean of per-call reuse', () => {
    const prompts = ['a'.repeat(100), 'a'.repeat(100), 'b'];
    const perCall = [prefixReuse(prompts[0], prompts[1]!), prefixReuse(prompts[1], prompts[2]!)];
    expect(perCall).toEqual([1, 0]);
    expect(agentReuse(prompts)).toBeCloseTo(100 / 101, 12);
  });
});
