import { describe, expect, it } from 'vitest';
import { freshness, memoryCounts } from '../../../../../renderer/store/memory/memorySelectors';
import { makeMemoryEntry } from '../../compareMemoryFixtures';

describe('memory selectors', () => {
  it('counts entries per state', () => {
    expect(memoryCounts([makeMemoryEntry('a'), makeMemoryEntry('b', { state: 'verified' }), makeMemoryEntry('c', { state: 'verified' })])).toEqual({ candidate: 1, verified: 2, stale: 0, retired: 0, deleted: 0 });
  });

  it('freshness says stale for a stale entry, else the observation age', () => {
    const day = 86_400_000;
    const at = Date.UTC(2026, 0, 1);
    expect(freshness(makeMemoryEntry('a', { state: 'stale' }), at).level).toBe('stale');
    expect(freshness(makeMemoryEntry('a'), at + 1000)).toEqual({ label: 'observed today', level: 'fresh' });
    expect(freshness(makeMemoryEntry('a'), at + day)).toEqual({ label: 'observed 1 day ago', level: 'fresh' });
    expect(freshness(makeMemoryEntry('a'), at + 45 * day)).toEqual({ label: 'observed 45 days ago', level: 'aging' });
  });
});
