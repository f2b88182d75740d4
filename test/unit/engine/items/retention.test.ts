import { describe, expect, it } from 'vitest';
import type { ContextItem, InfoClass } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import {
  ARCHIVE_KEPT,
  archiveExcess,
  COMPACT_MIN_REMOVED,
  compactionDue,
  DURABLE_KEPT_PER_AGENT,
  durableOverCap,
  expiredTransient,
  ownsTransient,
  transientOf,
  type PoolSlots,
} from '../../../../engine/items/retention';
import { item } from '../../../support/engineFixtures';

const make = (id: string, cls: InfoClass, over: Partial<ItemInput> = {}): ContextItem => createItem(item({ id, kind: 'note', class: cls, ...over }));
const ids = (items: readonly ContextItem[]) => items.map((i) => i.id);
const nobodyHolds = () => false;
/** Slots in arrival order; `undefined` is a removed slot. */
const slotsOf = (items: (ContextItem | undefined)[]): PoolSlots => ({ arrivals: items.length, itemAt: (slot) => items[slot] });

describe('[class-survival] [agent-end] what of an agent a refresh or an end drops', () => {
  const pool = [
    make('eph', 'ephemeral'),
    make('hist', 'raw_history'),
    make('state', 'task_state'),
    make('finding', 'finding'),
    make('memory', 'project_memory'),
    make('pinned-eph', 'ephemeral', { pinned: true }),
    make('mandatory-hist', 'raw_history', { mandatory: true }),
    make('other-eph', 'ephemeral', { agentId: 'worker-2' }),
  ];

  it('[class-survival] transientOf names the agent\'s unprotected ephemeral items and raw history, in pool order', () => {
    expect(ids(transientOf(pool, 'worker-1'))).toEqual(['eph', 'hist']);
    expect(ids(transientOf(pool, 'worker-2'))).toEqual(['other-eph']);
    expect(transientOf(pool, 'nobody')).toEqual([]);
  });

  it.each([
    ['worker-1', true],
    ['worker-2', true],
    ['worker-3', false],
  ])('[agent-end] ownsTransient(%s) is %s', (agentId, owns) => {
    expect(ownsTransient(pool, agentId)).toBe(owns);
  });

  it('[agent-end] protected and durable items are not transient', () => {
    expect(ownsTransient([make('a', 'task_state'), make('b', 'ephemeral', { pinned: true }), make('c', 'raw_history', { mandatory: true })], 'worker-1')).toBe(false);
  });
});

describe('[ephemeral-expiry] what expires at the start of an agent\'s generation', () => {
  // Slots 0-3 arrived before worker-1's previous generation began (before = 4), slots 4-5 after.
  const pool: (ContextItem | undefined)[] = [
    make('old-eph', 'ephemeral'),
    make('old-hist', 'raw_history'),
    make('old-state', 'task_state'),
    make('old-other', 'ephemeral', { agentId: 'worker-2' }),
    make('new-eph', 'ephemeral'),
    make('new-other', 'ephemeral', { agentId: 'worker-2' }),
  ];
  const base = { agentId: 'worker-1', slots: slotsOf(pool), held: nobodyHolds };

  it.each<[string, { before: number; ended?: string[]; held?: string[] }, string[]]>([
    ['before its second generation nothing expires', { before: 0 }, []],
    ['its own transient items that arrived before its previous generation began expire', { before: 4 }, ['old-eph', 'old-hist']],
    ['what arrived after that has been weighed once only and stays', { before: 1 }, ['old-eph']],
    ['an item some current generation holds stays', { before: 4, held: ['old-hist'] }, ['old-eph']],
    ['every transient item of an ended agent expires, whenever it arrived', { before: 0, ended: ['worker-2'] }, ['old-other', 'new-other']],
    ['an ended agent\'s held items stay', { before: 4, ended: ['worker-2'], held: ['new-other'] }, ['old-eph', 'old-hist', 'old-other']],
  ])('[ephemeral-expiry] %s', (_name, c, expected) => {
    const held = new Set(c.held ?? []);
    const expired = expiredTransient({ ...base, before: c.before, ended: new Set(c.ended ?? []), held: (id) => held.has(id) });
    expect(ids(expired)).toEqual(expected);
  });

  it('[ephemeral-expiry] removed slots are skipped, and pinned or mandatory transient items never expire', () => {
    const slots = slotsOf([undefined, make('pinned', 'ephemeral', { pinned: true }), make('mandatory', 'raw_history', { mandatory: true }), make('plain', 'ephemeral')]);
    expect(ids(expiredTransient({ agentId: 'worker-1', before: 4, ended: new Set(), slots, held: nobodyHolds }))).toEqual(['plain']);
  });
});

describe('[durable-cap] which durable notes leave past the cap', () => {
  const notes = (n: number, over: Partial<ItemInput> = {}) => Array.from({ length: n }, (_, k) => make(`n${k}`, k % 2 ? 'finding' : 'task_state', over));

  it.each<[string, number, string[], string[]]>([
    ['at the cap nothing leaves', DURABLE_KEPT_PER_AGENT, [], []],
    ['one over, the oldest leaves', DURABLE_KEPT_PER_AGENT + 1, [], ['n0']],
    ['three over, the three oldest leave', DURABLE_KEPT_PER_AGENT + 3, [], ['n0', 'n1', 'n2']],
    ['held ones are skipped and the next oldest leave instead', DURABLE_KEPT_PER_AGENT + 2, ['n0'], ['n1', 'n2']],
    ['when only held ones are left, fewer leave', DURABLE_KEPT_PER_AGENT + 2, Array.from({ length: DURABLE_KEPT_PER_AGENT + 1 }, (_, k) => `n${k}`), ['n129']],
  ])('[durable-cap] %s', (_name, count, heldIds, expected) => {
    const held = new Set(heldIds);
    expect(ids(durableOverCap(notes(count), 'worker-1', (id) => held.has(id)))).toEqual(expected);
  });

  it('[durable-cap] pinned, mandatory and verified notes, project memory, transient items and other agents\' notes neither count nor leave', () => {
    const uncounted = [
      make('pinned', 'finding', { pinned: true }),
      make('mandatory', 'task_state', { mandatory: true }),
      make('verified', 'finding', { source: 'verified_fact' }),
      make('memory', 'project_memory'),
      make('eph', 'ephemeral'),
      ...Array.from({ length: 10 }, (_, k) => make(`w2-${k}`, 'finding', { agentId: 'worker-2' })),
    ];
    expect(durableOverCap([...uncounted, ...notes(DURABLE_KEPT_PER_AGENT)], 'worker-1', nobodyHolds)).toEqual([]);
    expect(ids(durableOverCap([...uncounted, ...notes(DURABLE_KEPT_PER_AGENT + 1)], 'worker-1', nobodyHolds))).toEqual(['n0']);
  });
});

describe('[pool-compaction] when the pool drops its removed slots', () => {
  it.each([
    [COMPACT_MIN_REMOVED - 1, 0, false],
    [COMPACT_MIN_REMOVED, 0, true],
    [COMPACT_MIN_REMOVED, COMPACT_MIN_REMOVED, true],
    [COMPACT_MIN_REMOVED, COMPACT_MIN_REMOVED + 1, false],
    [3 * COMPACT_MIN_REMOVED, 3 * COMPACT_MIN_REMOVED, true],
    [3 * COMPACT_MIN_REMOVED - 1, 3 * COMPACT_MIN_REMOVED, false],
  ])('[pool-compaction] %i removed, %i live: due %s', (removed, live, due) => {
    expect(compactionDue(removed, live)).toBe(due);
  });
});

describe('[bounded-history] the archive keeps the newest items', () => {
  it.each([
    [0, 0],
    [ARCHIVE_KEPT, 0],
    [ARCHIVE_KEPT + 1, 1],
    [ARCHIVE_KEPT + 250, 250],
  ])('[bounded-history] %i archived: the oldest %i go', (archived, excess) => {
    expect(archiveExcess(archived)).toBe(excess);
  });
});
