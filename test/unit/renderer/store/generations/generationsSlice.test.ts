import { describe, expect, it } from 'vitest';
import type { IncludedDto } from '../../../../../engine/contract';
import { generationsInitialState, reduceGenerations, refreshLine, type GenerationsState } from '../../../../../renderer/store/generations/generationsSlice';
import { generationStarted, itemChanged, makeDiff, makeGeneration, makeIncluded, makeItem, makeSummary } from '../../generationFixtures';

const forAgent = (agentId: string): GenerationsState => reduceGenerations(generationsInitialState, { type: 'agent.select', agentId });

describe('reduceGenerations', () => {
  it('selecting another agent starts over; selecting the same one keeps everything', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generation.detail', detail: makeGeneration('a', 2) });
    expect(reduceGenerations(s, { type: 'agent.select', agentId: 'a' })).toBe(s);
    const other = reduceGenerations(s, { type: 'agent.select', agentId: 'b' });
    expect(other).toEqual({ ...generationsInitialState, agentId: 'b' });
  });

  it('loads the list sorted oldest first, and marks loading and failure per part', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generations.loading', agentId: 'a', part: 'list' });
    expect(s.list.status).toBe('loading');
    s = reduceGenerations(s, { type: 'generations.list', agentId: 'a', generations: [makeSummary('a', 3), makeSummary('a', 1), makeSummary('a', 2)] });
    expect(s.list).toMatchObject({ status: 'ready', error: null });
    expect(s.list.value.map((g) => g.number)).toEqual([1, 2, 3]);
    s = reduceGenerations(s, { type: 'generations.failed', agentId: 'a', part: 'detail', message: 'Agent "a" has not been built yet.' });
    expect(s.detail).toEqual({ status: 'error', value: null, error: 'Agent "a" has not been built yet.' });
    expect(s.list.status).toBe('ready');
  });

  it('a reload of the generation keeps the identity of every entry it did not change (rows re-render for the changed ones only)', () => {
    let s = forAgent('a');
    const first = makeGeneration('a', 2);
    s = reduceGenerations(s, { type: 'generation.detail', detail: first });
    expect(s.detail.value).toBe(first);
    const same = reduceGenerations(s, { type: 'generation.detail', detail: structuredClone(first) });
    expect(same.detail.value).toBe(first);
    const [constraint, f1, f2] = first.included as [IncludedDto, IncludedDto, IncludedDto];
    const fresh = makeIncluded(makeItem('finding:3'), { tokens: 50 });
    const next = structuredClone({ ...first, tokens: 570, included: [constraint, fresh, { ...f1, score: 0.5 }, f2] });
    const shared = reduceGenerations(s, { type: 'generation.detail', detail: next }).detail.value!;
    expect(shared).toEqual(next);
    expect(shared.included[0]).toBe(constraint);
    expect(shared.included[2]).not.toBe(f1);
    expect(shared.included[2]?.item).toBe(f1.item);
    expect(shared.included[3]).toBe(f2);
    expect(shared.dropped).toBe(first.dropped);
    expect(shared.compressed).toBe(first.compressed);
  });

  it('a reloaded list that did not change keeps its identity', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generations.list', agentId: 'a', generations: [makeSummary('a', 2), makeSummary('a', 1)] });
    const list = s.list.value;
    s = reduceGenerations(s, { type: 'generations.list', agentId: 'a', generations: [makeSummary('a', 1), makeSummary('a', 2)] });
    expect(s.list.value).toBe(list);
  });

  it('ignores answers for an agent that is no longer selected (late responses)', () => {
    const s = forAgent('a');
    expect(reduceGenerations(s, { type: 'generations.list', agentId: 'b', generations: [makeSummary('b', 1)] })).toBe(s);
    expect(reduceGenerations(s, { type: 'generation.detail', detail: makeGeneration('b', 1) })).toBe(s);
    expect(reduceGenerations(s, { type: 'generation.diff', diff: makeDiff('b', 1, 2) })).toBe(s);
    expect(reduceGenerations(s, { type: 'generations.failed', agentId: 'b', part: 'list', message: 'x' })).toBe(s);
  });

  it('keeps a diff only when it answers the pair picked last', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generation.diffPick', from: 2, to: 3 });
    expect(reduceGenerations(s, { type: 'generation.diff', diff: makeDiff('a', 1, 2) })).toBe(s);
    s = reduceGenerations(s, { type: 'generation.diff', diff: makeDiff('a', 2, 3) });
    expect(s.diff.status).toBe('ready');
    expect(s.diff.value?.to).toBe(3);
  });

  it('records the boundary line of generation.started for the selected agent only', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'event', event: generationStarted('b', 2) });
    expect(s.notes).toEqual({});
    s = reduceGenerations(s, { type: 'event', event: generationStarted('a', 3, 'utilization 92%') });
    expect(s.notes[3]).toEqual({ generation: 3, previous: 2, kind: 'refresh', reason: 'utilization 92%', text: 'Context refreshed · Generation 2 → 3 · Reason: utilization 92%' });
  });

  it('item.changed replaces the item where the viewed generation holds it, and marks removals', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generation.detail', detail: makeGeneration('a', 1) });
    const pinned = makeItem('finding:1', { pinned: true });
    s = reduceGenerations(s, { type: 'event', event: itemChanged(pinned) });
    expect(s.detail.value?.included.find((e) => e.item.id === 'finding:1')?.item.pinned).toBe(true);
    const unrelated = reduceGenerations(s, { type: 'event', event: itemChanged(makeItem('elsewhere')) });
    expect(unrelated).toBe(s);
    s = reduceGenerations(s, { type: 'event', event: { name: 'item.changed', payload: { change: 'removed', itemId: 'old:1', item: null } } });
    expect(s.removed).toEqual({ 'old:1': true });
    // A fresh detail clears the removal marks (the host's answer is the truth).
    s = reduceGenerations(s, { type: 'generation.detail', detail: makeGeneration('a', 2) });
    expect(s.removed).toEqual({});
  });

  it('generation.view picks a generation or follows the current one', () => {
    let s = forAgent('a');
    s = reduceGenerations(s, { type: 'generation.view', number: 2 });
    expect(s.viewed).toBe(2);
    expect(reduceGenerations(s, { type: 'generation.view', number: 2 })).toBe(s);
    expect(reduceGenerations(s, { type: 'generation.view', number: null }).viewed).toBeNull();
  });

  it('[refresh-text] writes the engine’s line', () => {
    expect(refreshLine(2, 3, 'context limit')).toBe('Context refreshed · Generation 2 → 3 · Reason: context limit');
  });
});
