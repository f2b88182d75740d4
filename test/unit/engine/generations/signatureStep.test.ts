import { describe, expect, it } from 'vitest';
import { SIGNATURES_KEPT, signatureStep } from '../../../../engine/generations/RunStats';

const full = () => new Set(Array.from({ length: SIGNATURES_KEPT }, (_, n) => `sig ${n}`));

describe('[run-stats] what an item\'s action signature does to the agent\'s remembered ones', () => {
  it.each<[string, Set<string>, string, { repeated: boolean; evict?: string }]>([
    ['a new signature is remembered', new Set(['grep a']), 'grep b', { repeated: false }],
    ['a signature seen before is a repeated action', new Set(['grep a', 'grep b']), 'grep a', { repeated: true }],
    ['a new signature past the limit forgets the oldest remembered one', full(), 'new one', { repeated: false, evict: 'sig 0' }],
    ['a repeat at the limit forgets nothing', full(), `sig ${SIGNATURES_KEPT - 1}`, { repeated: true }],
  ])('[run-stats] [bounded-history] %s', (_name, seen, signature, step) => {
    expect(signatureStep(seen, signature)).toEqual(step);
  });

  it('[run-stats] deciding changes nothing it was given', () => {
    const seen = full();
    signatureStep(seen, 'new one');
    expect(seen.size).toBe(SIGNATURES_KEPT);
    expect(seen.has('sig 0')).toBe(true);
  });
});
