import { describe, expect, it } from 'vitest';
import { carriedLayers, STALE_PREFIX_SHARE } from '../../../../engine/generations/carriedLayers';
import type { Boundary } from '../../../../engine/generations/Generation';
import { generationOf } from '../../../support/generationFixtures';

const previous = generationOf(1);
const l1 = previous.included.filter((e) => e.layer === 'L1');
const l2 = previous.included.filter((e) => e.layer === 'L2');
const rebuild: Boundary = { kind: 'rebuild', reason: 'manual rebuild' };

describe('[rebuild-keeps-prefix] what a new generation keeps of the previous one', () => {
  it.each<[string, Boundary, boolean, string[]]>([
    ['a first build keeps nothing', { kind: 'start', reason: 'first build' }, false, []],
    ['a refresh reorders fully', { kind: 'refresh', reason: 'test' }, false, []],
    ['a manual, pin or phase rebuild keeps the L2 entries in emitted order', rebuild, false, ['previousL2']],
    ['a budget rebuild keeps L2, L1\'s items and the stale share', { kind: 'rebuild', reason: 'budget reached' }, true, ['previousL2', 'previousL1', 'staleShare']],
  ])('[rebuild-keeps-prefix] [refresh-misses-dynamic] %s', (_name, boundary, budgetFull, keys) => {
    expect(l1.length > 0 && l2.length > 0).toBe(true);
    const carried = carriedLayers(boundary, budgetFull, previous);
    expect(Object.keys(carried).sort()).toEqual([...keys].sort());
    if (carried.previousL2) expect(carried.previousL2).toEqual(l2);
    if (carried.previousL1) expect([...carried.previousL1]).toEqual(l1.map((e) => e.item.id));
    if (budgetFull) expect(carried.staleShare).toBe(0.8);
    expect(STALE_PREFIX_SHARE).toBe(0.8);
  });

  it('[rebuild-keeps-prefix] without a previous generation there is nothing to keep', () => {
    expect(carriedLayers(rebuild, true, undefined)).toEqual({});
  });

  it('[rebuild-keeps-prefix] the kept L2 is a copy: the previous generation\'s list stays as it is', () => {
    const carried = carriedLayers(rebuild, false, previous);
    expect(carried.previousL2).not.toBe(previous.included);
    (carried.previousL2 as unknown[]).splice(0);
    expect(previous.included.filter((e) => e.layer === 'L2')).toEqual(l2);
  });
});
