import { describe, expect, it } from 'vitest';
import { agentReuse, agentReuseOfCalls, prefixReuse, reuseRatio } from '../../../../engine/metrics/prefixReuse';

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

describe('[prefix-reuse-def] reuseRatio = reused bytes / prompt bytes, 0 without bytes', () => {
  it.each([
    [0, 0, 0],
    [0, 10, 0],
    [10, 10, 1],
    [3, 4, 0.75],
  ])('%d of %d bytes -> %d', (reused, bytes, expected) => {
    expect(reuseRatio(reused, bytes)).toBe(expected);
  });
});

describe('[agent-reuse-def] agentReuseOfCalls: the byte-weighted reuse of calls given as byte counts', () => {
  it.each([
    [[], 0],
    [[{ reusedBytes: 0, promptBytes: 100 }], 0],
    // The first call is left out whatever it says (it has no previous prompt).
    [[{ reusedBytes: 50, promptBytes: 100 }, { reusedBytes: 90, promptBytes: 100 }], 0.9],
    [[{ reusedBytes: 0, promptBytes: 10 }, { reusedBytes: 98, promptBytes: 98 }, { reusedBytes: 0, promptBytes: 2 }], 0.98],
    [[{ reusedBytes: 0, promptBytes: 10 }, { reusedBytes: 0, promptBytes: 0 }], 0],
  ])('%j -> %d', (calls, expected) => {
    expect(agentReuseOfCalls(calls)).toBeCloseTo(expected, 12);
  });

  it('gives agentReuse of the same prompts', () => {
    const prompts = ['abcd', 'abcdefgh', 'abcdWXYZ', 'é', 'éè'];
    const bytes = new TextEncoder();
    const calls = prompts.map((p, i) => {
      const a = i > 0 ? bytes.encode(prompts[i - 1]) : new Uint8Array();
      const b = bytes.encode(p);
      let n = 0;
      while (n < a.length && n < b.length && a[n] === b[n]) n++;
      return { reusedBytes: n, promptBytes: b.length };
    });
    expect(agentReuseOfCalls(calls)).toBeCloseTo(agentReuse(prompts), 12);
  });
});
