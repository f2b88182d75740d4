import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createItem } from '../../../../engine/items/createItem';
import { PoolIndex } from '../../../../engine/retrieve/PoolIndex';
import { prepareQuery, scoreItem } from '../../../../engine/retrieve/score';
import { scoreAll } from '../../../../engine/retrieve/scoreAll';
import { dirOf, terms } from '../../../../engine/retrieve/terms';
import { T0 } from '../../../support/engineFixtures';
import { pool } from '../../../support/enginePools';

const request = { taskId: 'task-auth', task: 'Implement refresh token rotation', files: ['src/auth/store.ts'], symbols: ['saveToken'], keywords: ['token', 'migration'], role: 'worker' as const, phase: 'implement', failures: ['expected 200, got 401'], now: T0 + 3600_000 };

/** What the postings should be for exactly these live items, slot by slot. */
function expectedPostings(index: PoolIndex) {
  const want = { term: new Map<string, number[]>(), file: new Map<string, number[]>(), dir: new Map<string, number[]>(), symbol: new Map<string, number[]>() };
  const add = (m: Map<string, number[]>, k: string, slot: number) => {
    const l = m.get(k) ?? [];
    if (l.at(-1) !== slot) l.push(slot);
    m.set(k, l);
  };
  for (let slot = 0; slot < index.arrivals; slot++) {
    const item = index.itemAt(slot);
    if (!item) continue;
    for (const t of terms(`${item.title}\n${item.content}`)) add(want.term, t, slot);
    for (const f of item.provenance.files) {
      add(want.file, f, slot);
      const d = dirOf(f);
      if (d) add(want.dir, d, slot);
    }
    for (const s of item.provenance.symbols) add(want.symbol, s, slot);
  }
  return want;
}

describe('PoolIndex.compact', () => {
  it('[pool-compaction] drops removed slots, keeps live items in arrival order with their columns, postings and scores, and renumbers what was seen', () => {
    fc.assert(
      fc.property(pool(60), fc.array(fc.nat(), { maxLength: 40 }), fc.nat(), (inputs, removals, seenAt) => {
        const items = inputs.map((i, n) => createItem({ ...i, files: n % 2 ? ['src/auth/store.ts'] : ['src/db/migrate.ts'], symbols: n % 3 === 0 ? [] : ['saveToken'] }));
        const index = new PoolIndex(items);
        // Count some tokens, so the counted column must move with its item.
        for (let slot = 0; slot < index.arrivals; slot += 2) index.tokens.data[slot] = 1000 + slot;
        const removed = new Set<string>();
        for (const k of removals) if (items.length > 0) removed.add((items[k % items.length] as (typeof items)[number]).id);
        for (const id of removed) index.remove(id);
        const live = items.filter((i) => !removed.has(i.id));
        const tokensBefore = new Map(live.map((i) => [i.id, index.tokens.data[index.slotOf(i.id) as number]]));
        const seen = items.length === 0 ? 0 : seenAt % (items.length + 1);
        const seenLiveIds = items.slice(0, seen).filter((i) => !removed.has(i.id)).map((i) => i.id);

        const { renumber } = index.compact();

        expect(index.arrivals).toBe(live.length);
        expect(index.size).toBe(live.length);
        expect(index.removed).toBe(0);
        expect([...index.values()].map((i) => i.id)).toEqual(live.map((i) => i.id));
        for (const [slot, item] of live.entries()) {
          expect(index.slotOf(item.id)).toBe(slot);
          expect(index.itemAt(slot)).toBe(item);
          expect(index.tokens.data[slot]).toBe(tokensBefore.get(item.id));
        }
        for (const id of removed) expect(index.has(id)).toBe(false);
        // "The first `seen` arrivals were seen" still names the same live items.
        expect(live.slice(0, renumber(seen)).map((i) => i.id)).toEqual(seenLiveIds);
        const want = expectedPostings(index);
        expect(new Map(index.termPostings)).toEqual(want.term);
        expect(new Map(index.filePostings)).toEqual(want.file);
        expect(new Map(index.dirPostings)).toEqual(want.dir);
        expect(new Map(index.symbolPostings)).toEqual(want.symbol);
        const q = prepareQuery(request);
        const { scores } = scoreAll(index, q);
        for (const [slot, item] of live.entries()) expect(scores[slot]).toBe(scoreItem(item, q).score);
      }),
      { seed: 20261129, numRuns: 120 },
    );
  });

  it('[pool-compaction] new arrivals after a compaction take the next slots, and a removed id can come back', () => {
    const items = Array.from({ length: 6 }, (_, n) => createItem({ id: `i${n}`, kind: 'note', class: 'ephemeral', content: `note ${n} about tokens`, source: 'worker_finding', agentId: 'a', taskId: 't', at: T0 }));
    const index = new PoolIndex(items);
    for (const id of ['i0', 'i2', 'i3']) index.remove(id);
    expect(index.compact().renumber(6)).toBe(3);
    expect(index.add(createItem({ id: 'i2', kind: 'note', class: 'ephemeral', content: 'back again', source: 'worker_finding', agentId: 'a', taskId: 't', at: T0 }))).toBe(3);
    expect([...index.values()].map((i) => i.id)).toEqual(['i1', 'i4', 'i5', 'i2']);
    expect(index.termPostings.get('back')).toEqual([3]);
  });

  it('[pool-compaction] gives back column capacity once most of a large pool is gone', () => {
    const items = Array.from({ length: 20_000 }, (_, n) => createItem({ id: `i${n}`, kind: 'note', class: 'ephemeral', content: `note ${n}`, source: 'worker_finding', agentId: 'a', taskId: 't', at: T0 }));
    const index = new PoolIndex(items);
    expect(index.at.data.length).toBeGreaterThanOrEqual(20_000);
    for (let n = 0; n < 19_900; n++) index.remove(`i${n}`);
    index.compact();
    expect(index.at.data.length).toBeLessThan(4096);
    expect([...index.values()].map((i) => i.id)).toEqual(items.slice(19_900).map((i) => i.id));
  });
});
