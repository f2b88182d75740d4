import { describe, expect, it } from 'vitest';
import type { ItemDto } from '../../../../../engine/contract';
import { ageOf, differingSnippet, groupCandidates } from '../../../../../renderer/store/memory/memorySelectors';

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

describe('look-alike candidates (same kind and title, different text)', () => {
  const run = (tail: string) => `FAIL tests/unit/store.spec.ts > rotation > keeps the family on refresh: AssertionError: expected ${tail}`;
  it('says how many other rows look alike and where the texts part', () => {
    const a = item('f:1', 2, { kind: 'failure', title: 'failing: npm test -- tests/unit/store.spec.ts', content: run('"fam-1" to be "fam-2"'), contentHash: 'ha' });
    const b = item('f:2', 1, { kind: 'failure', title: 'failing: npm test -- tests/unit/store.spec.ts', content: run('null to be "fam-2"'), contentHash: 'hb' });
    const c = item('x', 3, { title: 'Unrelated' });
    const groups = groupCandidates([a, b, c]);
    expect(groups.map((g) => [g.item.id, g.lookalikes])).toEqual([
      ['x', 0],
      ['f:1', 1],
      ['f:2', 1],
    ]);
    const start = run('').length;
    expect(groups[1]!.differsAt).toBe(start);
    expect(groups[2]!.differsAt).toBe(start);
    // The snippet starts a few words before the difference, so both rows show what tells them apart.
    expect(differingSnippet(a.content, start)).toMatch(/^….*AssertionError: expected "fam-1" to be "fam-2"$/);
    expect(differingSnippet(b.content, start)).toMatch(/^….*expected null to be "fam-2"$/);
    expect(differingSnippet(a.content, start).length).toBeLessThan(a.content.length);
  });

  it('leaves a text that differs early, and identical copies, as they are', () => {
    expect(differingSnippet('short text', 3)).toBe('short text');
    const copies = groupCandidates([item('a', 1), item('b', 2)]);
    expect(copies.map((g) => [g.count, g.lookalikes])).toEqual([[2, 0]]);
  });
});
