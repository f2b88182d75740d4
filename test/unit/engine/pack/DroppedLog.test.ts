import { describe, expect, it } from 'vitest';
import { DroppedLog } from '../../../../engine/pack/DroppedLog';
import type { DroppedEntry } from '../../../../engine/generations/Generation';
import { createItem } from '../../../../engine/items/createItem';
import { item } from '../../../support/engineFixtures';

const entries = (from: number, n: number): DroppedEntry[] =>
  Array.from({ length: n }, (_, k) => ({ item: createItem(item({ id: `d${from + k}` })), tokens: 10, reason: `reason ${from + k}` }));

describe('DroppedLog', () => {
  it('[bounded-history] keeps the first `limit` entries in order and counts every one', () => {
    const log = new DroppedLog(5);
    log.push(entries(0, 3));
    log.defer(4, (limit) => entries(3, limit));
    log.push(entries(7, 10));
    expect(log.count).toBe(17);
    expect(log.all().map((e) => e.item.id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    log.push(entries(17, 2));
    expect(log.count).toBe(19);
    expect(log.all()).toHaveLength(5);
  });

  it('[bounded-history] a deferred chunk is asked for no more entries than the log keeps', () => {
    const log = new DroppedLog(4);
    const asked: number[] = [];
    log.push(entries(0, 1));
    log.defer(100_000, (limit) => (asked.push(limit), entries(1, limit)));
    expect(log.all().map((e) => e.item.id)).toEqual(['d0', 'd1', 'd2', 'd3']);
    expect(asked).toEqual([3]);
    log.truncate(2);
    expect(log.all().map((e) => e.item.id)).toEqual(['d0', 'd1']);
    expect(log.count).toBe(100_001);
  });
});
