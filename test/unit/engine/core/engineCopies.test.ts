import { describe, expect, it } from 'vitest';
import { cloneIdentity, cloneRequest, cloneScope, snapshotGeneration } from '../../../../engine/engineCopies';
import type { BuildRequest } from '../../../../engine/EngineTypes';
import { droppedLogOf } from '../../../../engine/generations/DroppedLog';
import { identity } from '../../../support/engineFixtures';
import { generationOf } from '../../../support/generationFixtures';

describe('[one-boundary] the copies the Engine takes and gives', () => {
  it('[one-boundary] a scope copy is frozen and shares no list with the original', () => {
    const scope = { classes: ['finding' as const], dependencyTaskIds: ['t1'], maxItemTokens: 100 };
    const copy = cloneScope(scope);
    expect(copy).toEqual(scope);
    expect(Object.isFrozen(copy)).toBe(true);
    scope.classes.push('ephemeral' as never);
    scope.dependencyTaskIds.push('t2');
    expect(copy).toEqual({ classes: ['finding'], dependencyTaskIds: ['t1'], maxItemTokens: 100 });
    expect(cloneScope({})).toEqual({});
  });

  it('[one-boundary] [identity-survives] an identity copy is frozen down to its scope; changing the original changes nothing', () => {
    const original = identity({ scope: { classes: ['task_state'] } });
    const copy = cloneIdentity(original);
    expect(copy).toEqual(original);
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.scope)).toBe(true);
    original.budget = 1;
    original.scope.classes!.push('ephemeral');
    expect(copy.budget).toBe(4000);
    expect(copy.scope.classes).toEqual(['task_state']);
  });

  it.each(['files', 'symbols', 'keywords', 'failures'] as const)('[one-boundary] a request copy does not share its %s list', (key) => {
    const request: BuildRequest = { phase: 'implement', input: 'turn', [key]: ['a'] };
    const copy = cloneRequest(request);
    expect(copy).toEqual(request);
    request[key]!.push('b');
    request.phase = 'hijacked';
    expect(copy[key]).toEqual(['a']);
    expect(copy.phase).toBe('implement');
  });
});

describe('[generations-kept] a generation snapshot', () => {
  it('[generations-kept] equals the generation and shares no array or record later builds change', () => {
    const live = generationOf(1);
    expect(live.dropped.length).toBeGreaterThan(0);
    const snap = snapshotGeneration(live);
    expect(snap).toEqual(live);
    const before = structuredClone(snap);
    live.included.push(live.included[0]!);
    live.compressed.push({ itemId: 'x', from: 9, to: 1, method: 'clip' });
    live.layerTokens.L2 += 1;
    live.indicators.fired.push('utilization');
    live.boundary.reason = 'changed';
    live.builds += 1;
    expect(snap).toEqual(before);
  });

  it('[generations-kept] [bounded-history] its dropped list is read from the live one on first access and kept from then on', () => {
    const live = generationOf(1);
    const count = live.dropped.length;
    expect(count).toBeGreaterThan(1);
    const read = snapshotGeneration(live);
    expect(read.dropped).toHaveLength(count);
    const unread = snapshotGeneration(live);
    droppedLogOf(live)!.truncate(1);
    expect(read.dropped).toHaveLength(count);
    expect(unread.dropped).toHaveLength(1);
    expect(unread.dropped[0]!.item.id).toBe(read.dropped[0]!.item.id);
    expect(unread.droppedTotal).toBe(live.droppedTotal);
  });

  it('[generations-kept] a released generation keeps its counts in the snapshot', () => {
    const live = generationOf(1);
    live.released = { included: live.included.length, compressed: 0 };
    live.included = [];
    const snap = snapshotGeneration(live);
    expect(snap.released).toEqual(live.released);
    expect(snap.released).not.toBe(live.released);
    expect(snap.included).toEqual([]);
  });
});
