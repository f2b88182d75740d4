import { describe, expect, it } from 'vitest';
import { billedPromptTokens, cacheReadShare, cacheWrites, newestCallsFirst, selectThreadRows } from '../../../../../renderer/store/gateway/gatewaySelectors';
import { gatewayGenerationDiff } from '../../../../../renderer/store/gateway/generationDiff';
import { initialRootState } from '../../../../../renderer/store/reduce';
import { makeGatewayCall, makeGatewayDetail, makeGeneration, makeThread } from '../../gatewayFixtures';

const usage = { input: 1_000, cacheRead: 3_000, cacheWrite: 1_000, cacheWrite1h: 400, output: 200 };

describe('gateway selectors', () => {
  it('billed prompt tokens add the disjoint parts once (the 1-hour writes are part of the cache writes); the read share is the hit rate', () => {
    expect(billedPromptTokens(usage)).toBe(5_000);
    expect(cacheReadShare(usage)).toBeCloseTo(0.6, 10);
    expect(cacheReadShare({ ...usage, input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 })).toBe(0);
    expect(cacheWrites(usage)).toEqual({ m5: 600, h1: 400 });
  });

  it('the thread tree puts children under their parent by parentId, depth first; a thread whose parent is gone is a root', () => {
    const threads = [makeThread('th-main'), makeThread('sub-b', { parentId: 'th-main' }), makeThread('orphan', { parentId: 'gone' }), makeThread('sub-a1', { parentId: 'sub-a' }), makeThread('sub-a', { parentId: 'th-main' })];
    const state = { ...initialRootState, gateway: { ...initialRootState.gateway, detail: makeGatewayDetail('gs-1', threads) } };
    const rows = selectThreadRows(state);
    expect(rows.map((r) => [r.thread.id, r.depth])).toEqual([
      ['th-main', 0],
      ['sub-b', 1],
      ['sub-a', 1],
      ['sub-a1', 2],
      ['orphan', 0],
    ]);
    expect(selectThreadRows(state)).toBe(rows);
  });

  it('a parent cycle still lists every thread', () => {
    const threads = [makeThread('a', { parentId: 'b' }), makeThread('b', { parentId: 'a' })];
    const state = { ...initialRootState, gateway: { ...initialRootState.gateway, detail: makeGatewayDetail('gs-1', threads) } };
    expect(selectThreadRows(state).map((r) => r.thread.id).sort()).toEqual(['a', 'b']);
  });

  it('calls show newest first without changing the thread', () => {
    const calls = [makeGatewayCall('c1'), makeGatewayCall('c2')];
    expect(newestCallsFirst(calls).map((c) => c.id)).toEqual(['c2', 'c1']);
    expect(calls.map((c) => c.id)).toEqual(['c1', 'c2']);
  });
});

describe('gateway generation diff', () => {
  const compressed = (key: string) => ({ key, tool: 'Read', beforeTokens: 4_000, afterTokens: 60, why: 'outside the protected window' });

  it('names what became compressed, what got dropped, what came back and what is new', () => {
    const g1 = makeGeneration(1, { included: ['t1', 't2', 't3'], compressed: [compressed('t0')] });
    const g2 = makeGeneration(2, { included: ['t0', 't3', 't4'], compressed: [compressed('t1')], dropped: [{ key: 't2', why: 'removed by the operator' }] });
    expect(gatewayGenerationDiff(g1, g2)).toEqual({ compressed: [compressed('t1')], dropped: [{ key: 't2', why: 'removed by the operator' }], cameBack: ['t0'], added: ['t4'] });
  });

  it('a first generation: everything it compressed or dropped is new, nothing came back', () => {
    const g1 = makeGeneration(1, { included: ['t2'], compressed: [compressed('t1')] });
    expect(gatewayGenerationDiff(undefined, g1)).toEqual({ compressed: [compressed('t1')], dropped: [], cameBack: [], added: [] });
  });

  it('the same choices again diff to nothing', () => {
    const g = makeGeneration(3, { included: ['a'], compressed: [compressed('b')], dropped: [{ key: 'c', why: 'removed' }] });
    expect(gatewayGenerationDiff(g, { ...g, generation: 4 })).toEqual({ compressed: [], dropped: [], cameBack: [], added: [] });
  });
});
