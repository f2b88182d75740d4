import { describe, expect, it } from 'vitest';
import { contextCategories } from '../../../../../renderer/store/generations/contextCategories';
import { groupDuplicates, itemMatches, matchRanges } from '../../../../../renderer/store/generations/groupDuplicates';
import { makeGeneration, makeIncluded, makeItem } from '../../generationFixtures';

describe('contextCategories', () => {
  it('splits the budget into instructions, classes, input, framing and free space that add up to it', () => {
    // L0 50 + items 40 (task_state) + 300 (finding) + 120 (ephemeral) + L3 10 = 520 tokens, budget 1000.
    const rows = contextCategories(makeGeneration('a', 1));
    expect(rows.map((r) => [r.id, r.tokens])).toEqual([
      ['instructions', 50],
      ['task_state', 40],
      ['finding', 300],
      ['ephemeral', 120],
      ['input', 10],
      ['free', 480],
    ]);
    expect(rows.reduce((n, r) => n + r.tokens, 0)).toBe(1000);
    expect(rows.find((r) => r.id === 'finding')?.share).toBe(0.3);
  });

  it('counts the layer framing, and no free space over budget (shares of the tokens then)', () => {
    const g = makeGeneration('a', 1, { tokens: 1200, budget: 1000, layerTokens: { L0: 50, L1: 40, L2: 420, L3: 10 } });
    const rows = contextCategories(g);
    expect(rows.find((r) => r.id === 'framing')?.tokens).toBe(1200 - 50 - 10 - 460);
    expect(rows.find((r) => r.id === 'free')).toEqual({ id: 'free', label: 'Free space', tokens: 0, share: 0 });
    expect(rows.reduce((n, r) => n + r.share, 0)).toBeCloseTo(1);
  });
});

describe('groupDuplicates', () => {
  it('groups items of the same kind and title where the first one was, with their count and tokens', () => {
    const read = (id: string) => makeIncluded(makeItem(id, { kind: 'code', title: 'read src/a.ts' }), { tokens: 100 });
    const other = makeIncluded(makeItem('f'), { tokens: 7 });
    const groups = groupDuplicates([read('r1'), other, read('r2'), read('r3'), read('r4')]);
    expect(groups.map((g) => [g.entries.map((e) => e.item.id), g.tokens])).toEqual([
      [['r1', 'r2', 'r3', 'r4'], 400],
      [['f'], 7],
    ]);
  });

  it('keeps the same title of another kind apart, and two constraints titled alike with different text', () => {
    const a = makeIncluded(makeItem('a', { kind: 'code', title: 'x' }));
    const b = makeIncluded(makeItem('b', { kind: 'tool_output', title: 'x' }));
    const c1 = makeIncluded(makeItem('c1', { kind: 'constraint', title: 'Constraint', contentHash: 'h1' }));
    const c2 = makeIncluded(makeItem('c2', { kind: 'constraint', title: 'Constraint', contentHash: 'h2' }));
    expect(groupDuplicates([a, b, c1, c2])).toHaveLength(4);
  });

  it('groups items of any kind with the same content', () => {
    const n1 = makeIncluded(makeItem('n1', { kind: 'note', title: 'A', contentHash: 'same' }));
    const n2 = makeIncluded(makeItem('n2', { kind: 'note', title: 'B', contentHash: 'same' }));
    expect(groupDuplicates([n1, n2]).map((g) => g.entries.length)).toEqual([2]);
  });
});

describe('search in the context', () => {
  it('matches title, id, source, files and content, case-insensitively; an empty query matches all', () => {
    const item = makeItem('tool:7', { title: 'grep issueToken', content: 'src/auth/Token.ts: export function issueToken()' });
    expect(itemMatches(item, 'TOKEN.ts')).toBe(true);
    expect(itemMatches(item, 'tool:7')).toBe(true);
    expect(itemMatches(item, 'src/a.ts')).toBe(true);
    expect(itemMatches(item, 'worker_finding')).toBe(true);
    expect(itemMatches(item, 'rotation')).toBe(false);
    expect(itemMatches(item, '  ')).toBe(true);
  });

  it('finds every occurrence as ranges', () => {
    expect(matchRanges('ab AB aB', 'ab')).toEqual([
      [0, 2],
      [3, 5],
      [6, 8],
    ]);
    expect(matchRanges('abc', '')).toEqual([]);
  });
});
