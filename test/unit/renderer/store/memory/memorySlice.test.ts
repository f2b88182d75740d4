import { describe, expect, it } from 'vitest';
import { memoryInitialState, reduceMemory } from '../../../../../renderer/store/memory/memorySlice';
import { makeMemoryEntry, memoryChanged } from '../../compareMemoryFixtures';

describe('memorySlice', () => {
  it('applies memory.changed entries by revision: newer replaces, older is dropped, new ones go first', () => {
    let s = reduceMemory(memoryInitialState, { type: 'memory.snapshot', entries: [makeMemoryEntry('m1', { revision: 2 })] });
    s = reduceMemory(s, { type: 'event', event: memoryChanged('proposed', makeMemoryEntry('m2')) });
    expect(s.entries.map((e) => e.id)).toEqual(['m2', 'm1']);
    const stale = reduceMemory(s, { type: 'event', event: memoryChanged('verified', makeMemoryEntry('m1', { revision: 1, state: 'verified' })) });
    expect(stale).toBe(s);
    s = reduceMemory(s, { type: 'event', event: memoryChanged('retired', makeMemoryEntry('m1', { revision: 3, state: 'retired' })) });
    expect(s.entries.find((e) => e.id === 'm1')).toMatchObject({ revision: 3, state: 'retired' });
  });

  it('a snapshot older than a live event keeps the newer revision', () => {
    let s = reduceMemory(memoryInitialState, { type: 'event', event: memoryChanged('verified', makeMemoryEntry('m1', { revision: 2, state: 'verified' })) });
    s = reduceMemory(s, { type: 'memory.snapshot', entries: [makeMemoryEntry('m1', { revision: 1 })] });
    expect(s.entries).toEqual([expect.objectContaining({ id: 'm1', revision: 2 })]);
  });

  it('a purge event names no entry and changes nothing (the controller lists again)', () => {
    const s = reduceMemory({ ...memoryInitialState, entries: [makeMemoryEntry('m1')] }, { type: 'event', event: memoryChanged('purged', null) });
    expect(s.entries).toHaveLength(1);
  });

  it('tracks a change in flight and its conflict by entry; a promotion is busy under its item id', () => {
    let s = reduceMemory({ ...memoryInitialState, entries: [makeMemoryEntry('m1')] }, { type: 'memory.changing', id: 'm1' });
    expect(s.busy).toEqual({ m1: true });
    s = reduceMemory(s, { type: 'memory.entryError', id: 'm1', code: 'conflict', message: 'revision 1 is stale' });
    expect(s).toMatchObject({ busy: {}, entryError: { id: 'm1', code: 'conflict' } });
    s = reduceMemory(s, { type: 'memory.changing', id: 'm1' });
    expect(s.entryError).toBeNull();
    s = reduceMemory(s, { type: 'memory.changing', id: 'item-m9' });
    s = reduceMemory(s, { type: 'memory.entry', entry: makeMemoryEntry('m9') });
    expect(s.busy).toEqual({ m1: true });
  });

  it('records the purge report and dismisses it', () => {
    let s = reduceMemory(memoryInitialState, { type: 'memory.purging' });
    expect(s.purging).toBe(true);
    const report = { deleted: 2, recalledCopiesDeleted: 1, vacuumed: true, walTruncated: true, residual: 'cannot reach backups' };
    s = reduceMemory(s, { type: 'memory.purged', report });
    expect(s).toMatchObject({ purging: false, purgeReport: report });
    expect(reduceMemory(s, { type: 'memory.dismissReport' }).purgeReport).toBeNull();
  });
});
