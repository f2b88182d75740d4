import { describe, expect, it } from 'vitest';
import type { StrataEvent } from '../../../../../engine/contract';
import type { Action } from '../../../../../renderer/store/actions';
import { markerWindow, reduceUsage, usageInitialState, usageWindow, type UsageState } from '../../../../../renderer/store/usage/usageSlice';
import { contextRefreshed, generationCreated, makeCall, usageRecorded } from '../../usageFixtures';

const run = (actions: Action[], from: UsageState = usageInitialState) => actions.reduce(reduceUsage, from);
const ev = (event: StrataEvent): Action => ({ type: 'event', event });

describe('reduceUsage', () => {
  it('appends live calls per agent and overall, oldest first', () => {
    const s = run([ev(usageRecorded([makeCall('a', 1), makeCall('b', 2)])), ev(usageRecorded([makeCall('a', 3)]))]);
    expect(s.byAgent.a?.map((p) => p.turn)).toEqual([1, 3]);
    expect(s.byAgent.b?.map((p) => p.turn)).toEqual([2]);
    expect(s.overall.map((p) => `${p.agentId}${p.turn}`)).toEqual(['a1', 'b2', 'a3']);
  });

  it('keeps a bounded window per agent and overall', () => {
    const calls = Array.from({ length: usageWindow + 120 }, (_, i) => makeCall('a', i + 1));
    const s = run([ev(usageRecorded(calls.slice(0, 300))), ev(usageRecorded(calls.slice(300)))]);
    expect(s.byAgent.a).toHaveLength(usageWindow);
    expect(s.byAgent.a?.[0]?.turn).toBe(121);
    expect(s.byAgent.a?.at(-1)?.turn).toBe(usageWindow + 120);
    expect(s.overall).toHaveLength(usageWindow);
  });

  it('leaves the state untouched by unrelated actions and empty batches', () => {
    const s = run([ev(usageRecorded([makeCall('a', 1)]))]);
    expect(reduceUsage(s, { type: 'view.select', view: 'charts' })).toBe(s);
    expect(reduceUsage(s, ev(usageRecorded([])))).toBe(s);
  });

  it('merges a getUsage snapshot with live calls that crossed it, without duplicates', () => {
    const live = run([{ type: 'usage.loading', agentId: 'a' }, ev(usageRecorded([makeCall('a', 3), makeCall('a', 4)]))]);
    expect(live.loading.a).toBe(true);
    const s = reduceUsage(live, { type: 'usage.snapshot', usage: { agentId: 'a', calls: [1, 2, 3].map((t) => makeCall('a', t)), totals: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, calls: 3, hitRate: 0 } } });
    expect(s.byAgent.a?.map((p) => p.turn)).toEqual([1, 2, 3, 4]);
    expect(s.loading.a).toBeUndefined();
  });

  it('clears loading when the backfill fails', () => {
    const s = run([{ type: 'usage.loading', agentId: 'a' }, { type: 'usage.failed', agentId: 'a' }]);
    expect(s.loading).toEqual({});
  });

  it('records generation markers from generation.created and context.refreshed, a refresh naming it best', () => {
    const s = run([ev(generationCreated('a', 1)), ev(generationCreated('a', 2, 'rebuild')), ev(generationCreated('a', 3, 'context limit')), ev(contextRefreshed('a', 3))]);
    // Generation 1 (the start) is no boundary.
    expect(s.markers.a).toEqual([
      { agentId: 'a', generation: 2, kind: 'generation', reason: 'rebuild' },
      { agentId: 'a', generation: 3, kind: 'refresh', reason: 'context limit' },
    ]);
    // A later generation.created for the same generation does not demote the refresh.
    expect(reduceUsage(s, ev(generationCreated('a', 3))).markers.a?.[1]?.kind).toBe('refresh');
  });

  it('bounds the markers per agent', () => {
    const s = run(Array.from({ length: markerWindow + 5 }, (_, i) => ev(contextRefreshed('a', i + 2))));
    expect(s.markers.a).toHaveLength(markerWindow);
    expect(s.markers.a?.[0]?.generation).toBe(7);
  });

  it('starts an agent over when its run restarts (turn and clock go back)', () => {
    const s = run([ev(usageRecorded([makeCall('a', 1), makeCall('a', 2)])), ev(contextRefreshed('a', 2)), ev(usageRecorded([makeCall('a', 1)]))]);
    expect(s.byAgent.a?.map((p) => p.turn)).toEqual([1]);
    expect(s.markers.a).toBeUndefined();
    expect(s.overall.map((p) => p.turn)).toEqual([1]);
  });

  it('keeps the overall window in time order when a batch arrives out of order', () => {
    const s = run([ev(usageRecorded([makeCall('a', 5)])), ev(usageRecorded([makeCall('b', 4), makeCall('b', 6)]))]);
    expect(s.overall.map((p) => p.turn)).toEqual([4, 5, 6]);
  });
});
