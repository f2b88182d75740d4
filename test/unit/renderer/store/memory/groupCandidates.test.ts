import { describe, expect, it } from 'vitest';
import type { ItemDto } from '../../../../../engine/contract';
import { ageOf, groupCandidates } from '../../../../../renderer/store/memory/memorySelectors';

const item = (id: string, at: number, o: Partial<ItemDto> = {}): ItemDto => ({
  id,
  kind: 'finding',
  class: 'finding',
  title: 'Tests fail on refresh',
  content: 'npm test fails in refresh.spec.ts',
  contentHash: 'h1',
  provenance: { source: 'test_result', agentId: 'primary', taskId: 't', at, confidence: 0.5, relevance: 0.5, durability: 'task', verified: false, files: [], symbols: [] },
  pinned: false,
  mandatory: false,
  phase: null,
  ...o,
});

describe('groupCandidates (issue 22, item 13)', () => {
  it('makes identical items (kind, title, content) one row with their count, the newest item first', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => item(`tool:${i}`, 1000 + i));
    const other = item('decision:1', 5000, { kind: 'decision', title: 'Use a family id', contentHash: 'h2' });
    const groups = groupCandidates([...twenty, other]);
    expect(groups.map((g) => [g.item.id, g.count])).toEqual([
      ['decision:1', 1],
      ['tool:19', 20],
    ]);
    expect(groups[1]!.ids).toHaveLength(20);
    expect(groups[1]!.ids[0]).toBe('tool:19');
  });

  it('keeps items apart when only the title, the kind or the content differs', () => {
    const groups = groupCandidates([item('a', 1), item('b', 2, { title: 'Other' }), item('c', 3, { kind: 'failure' }), item('d', 4, { contentHash: 'h9' })]);
    expect(groups.map((g) => g.count)).toEqual([1, 1, 1, 1]);
  });

  it('ageOf names the largest whole unit', () => {
    expect([ageOf(0, 30_000), ageOf(0, 5 * 60_000), ageOf(0, 3 * 3_600_000), ageOf(0, 86_400_000), ageOf(0, 3 * 86_400_000)]).toEqual(['just now', '5 min ago', '3 h ago', '1 day ago', '3 days ago']);
  });
});
