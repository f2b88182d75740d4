import { describe, expect, it } from 'vitest';
import { checkFreshness, COMMAND_EVIDENCE_MAX_AGE_MS, type Freshness } from '../../../../../engine/memory/recall/checkFreshness';
import type { WorktreeView } from '../../../../../engine/memory/recall/WorktreeView';
import { DAY, memoryRecord, NOW, type RecordOver, viewOf } from '../../../../support/memoryFixtures';

const A = 'src/auth/refresh.ts';
const B = 'src/auth/store.ts';
const old = (days: number) => [{ command: 'npm test', ranAt: NOW - days * DAY, result: 'exit 0' }];

describe('checkFreshness', () => {
  it('[recall-fresh] command evidence may be at most 30 days old', () => {
    expect(COMMAND_EVIDENCE_MAX_AGE_MS).toBe(30 * DAY);
  });

  const cases: [label: string, record: RecordOver, view: WorktreeView, want: Freshness][] = [
    ['everything matches', {}, viewOf(), 'current'],
    ['no paths, no commands, no commit', { evidence: { paths: [], commands: [], hashes: {}, commit: null } }, viewOf({ descends: false }), 'current'],
    ['command run exactly 30 days ago', { evidence: { commands: old(30) } }, viewOf(), 'current'],
    ['command run 30 days and 1 ms ago', { evidence: { commands: [{ command: 'npm test', ranAt: NOW - 30 * DAY - 1, result: 'exit 0' }] } }, viewOf(), 'stale'],
    ['command run 31 days ago, view matches', { evidence: { commands: old(31) } }, viewOf(), 'stale'],
    ['one of two commands too old', { evidence: { commands: [...old(1), ...old(45)] } }, viewOf(), 'stale'],
    // Stale is for everyone: no view can save it, and it outranks what the view would say.
    ['old command, hash differs in the view', { evidence: { commands: old(40) } }, viewOf({ hashes: { [A]: 'other' } }), 'stale'],
    ['old command, path missing in the view', { evidence: { commands: old(40) } }, viewOf({ paths: [] }), 'stale'],
    ['old command, commit not an ancestor', { evidence: { commands: old(40) } }, viewOf({ descends: false }), 'stale'],
    ['old command, ancestry unknown', { evidence: { commands: old(40) } }, viewOf({ descends: undefined }), 'stale'],
    ['path hash differs in the view', {}, viewOf({ hashes: { [A]: 'edited' } }), 'mismatch'],
    ['second path hash differs', { evidence: { paths: [A, B], hashes: { [A]: 'h:' + A, [B]: 'h:' + B } } }, viewOf({ hashes: { [B]: 'edited' } }), 'mismatch'],
    ['path missing from the view', {}, viewOf({ paths: [B] }), 'unknown'],
    ['a missing path before a differing one', { evidence: { paths: [B, A], hashes: { [A]: 'h:' + A } } }, viewOf({ paths: [A], hashes: { [A]: 'edited' } }), 'mismatch'],
    ['path without a recorded hash, present in the view', { evidence: { hashes: {} } }, viewOf(), 'current'],
    ['path without a recorded hash, missing from the view', { evidence: { hashes: {} } }, viewOf({ paths: [] }), 'unknown'],
    ['commit not an ancestor', {}, viewOf({ descends: false }), 'mismatch'],
    ['ancestry unknown', {}, viewOf({ descends: undefined }), 'unknown'],
    ['ancestry unknown, hash differs', {}, viewOf({ descends: undefined, hashes: { [A]: 'edited' } }), 'mismatch'],
    ['path missing, commit not an ancestor', {}, viewOf({ paths: [], descends: false }), 'mismatch'],
    ['no commit: ancestry is not asked', { evidence: { commit: null } }, viewOf({ descends: false }), 'current'],
  ];

  it.each(cases)('[recall-fresh] %s → %s', (_label, over, view, want) => {
    expect(checkFreshness(memoryRecord(over), view, NOW)).toBe(want);
  });

  it('[recall-fresh] asks the view about the recorded commit', () => {
    const asked: string[] = [];
    const view = viewOf({ descends: (c) => (asked.push(c), c === 'c0ffee') });
    expect(checkFreshness(memoryRecord(), view, NOW)).toBe('current');
    expect(checkFreshness(memoryRecord({ evidence: { commit: 'deadbeef' } }), view, NOW)).toBe('mismatch');
    expect(asked).toEqual(['c0ffee', 'deadbeef']);
  });

  it('[recall-fresh] the same entry is current in one view and dropped in another', () => {
    const r = memoryRecord();
    expect(checkFreshness(r, viewOf(), NOW)).toBe('current');
    expect(checkFreshness(r, viewOf({ hashes: { [A]: 'edited' } }), NOW)).toBe('mismatch');
    expect(checkFreshness(r, viewOf({ paths: [] }), NOW)).toBe('unknown');
  });
});
