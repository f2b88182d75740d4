import { describe, expect, it } from 'vitest';
import { shareEqual } from '../../../../renderer/store/shareEqual';

const byId = (v: unknown) => (typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : undefined);

describe('shareEqual', () => {
  it('returns the previous value itself when the next one deep-equals it', () => {
    const prev = { a: 1, list: [{ id: 'x', n: [1, 2] }], nested: { s: 'k', none: null } };
    const next = structuredClone(prev);
    expect(shareEqual(prev, next)).toBe(prev);
    expect(shareEqual(7, 7)).toBe(7);
    expect(shareEqual(Number.NaN, Number.NaN)).toBeNaN();
  });

  it('keeps the identity of each unchanged part and takes the changed ones from next', () => {
    const prev = { tokens: 10, list: [{ id: 'a', v: 1 }, { id: 'b', v: 2 }], meta: { x: 1 } };
    const next = { tokens: 11, list: [{ id: 'a', v: 1 }, { id: 'b', v: 3 }], meta: { x: 1 } };
    const out = shareEqual(prev, next);
    expect(out).toEqual(next);
    expect(out).not.toBe(prev);
    expect(out.meta).toBe(prev.meta);
    expect(out.list[0]).toBe(prev.list[0]);
    expect(out.list[1]).toBe(next.list[1]);
  });

  it('matches array entries by key when given one, so an entry that moved keeps its identity', () => {
    const prev = [{ id: 'a', v: 1 }, { id: 'b', v: 2 }];
    const next = [{ id: 'new', v: 0 }, { id: 'a', v: 1 }, { id: 'b', v: 2 }];
    const keyed = shareEqual(prev, next, byId);
    expect(keyed[1]).toBe(prev[0]);
    expect(keyed[2]).toBe(prev[1]);
    expect(keyed[0]).toBe(next[0]);
    // By index, the shifted entries compare with the wrong ones and none is kept.
    const byIndex = shareEqual(prev, next);
    expect(byIndex[1]).not.toBe(prev[0]);
  });

  it('tells a missing key from an undefined one, and a shorter array from a longer one', () => {
    const prev: Record<string, unknown> = { a: undefined };
    const next: Record<string, unknown> = { b: undefined };
    expect(shareEqual(prev, next)).toBe(next);
    expect(shareEqual([1, 2, 3], [1, 2])).toEqual([1, 2]);
    expect(shareEqual([1, 2], [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it('never reuses values of another shape', () => {
    expect(shareEqual([1], { 0: 1 })).toEqual({ 0: 1 });
    expect(shareEqual({ a: 1 }, [1])).toEqual([1]);
    expect(shareEqual(null, { a: 1 })).toEqual({ a: 1 });
  });
});
