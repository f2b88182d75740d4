import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../../../../engine/items/ContextItem';
import { createItem, type ItemInput } from '../../../../engine/items/createItem';
import { retrieve } from '../../../../engine/retrieve/retrieve';
import type { RetrieveRequest } from '../../../../engine/retrieve/RetrieveRequest';
import { prepareQuery, RECENCY_HALF_LIFE_MS, scoreItem, scoreWeights, type ScoreParts } from '../../../../engine/retrieve/score';
import { terms } from '../../../../engine/retrieve/terms';
import { identity, item, newEngine, T0 } from '../../../support/engineFixtures';

const req = (over: Partial<RetrieveRequest> = {}): RetrieveRequest => ({
  taskId: 'task-auth',
  task: 'rotate tokens',
  files: [],
  symbols: [],
  keywords: [],
  role: 'worker',
  phase: 'implement',
  failures: [],
  now: T0,
  ...over,
});

const mk = (over: Partial<ItemInput> = {}): ContextItem =>
  createItem({ id: 'x', kind: 'note', class: 'finding', title: 'note', content: 'plain words here', source: 'worker_finding', agentId: 'a', taskId: 'other', at: T0, ...over });

const parts = (i: ContextItem, r: RetrieveRequest): ScoreParts => scoreItem(i, prepareQuery(r)).parts;

describe('[score-fresh] scoring', () => {
  it('[score-fresh] the weights sum to 1, so a score stays in 0..1', () => {
    expect(Object.values(scoreWeights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it.each<[keyof ScoreParts, Partial<ItemInput>, Partial<RetrieveRequest>, number, number]>([
    ['keywords', { content: 'rotation of the refresh token' }, { keywords: ['refresh'], task: '' }, 0, 1],
    ['files', { files: ['src/auth/store.ts'] }, { files: ['src/auth/store.ts'] }, 0, 1],
    ['symbols', { symbols: ['saveToken'] }, { symbols: ['saveToken'] }, 0, 1],
    ['failures', { content: 'expected 200 got 401 in refreshSpec' }, { failures: ['refreshSpec 401'] }, 0, 1],
    ['task', { taskId: 'task-auth' }, {}, 0, 1],
    ['phase', { phase: 'implement' }, {}, 0, 1],
    ['confidence', { confidence: 1 }, {}, 0, 1],
    ['durability', { durability: 'project' }, {}, 0.1, 1],
    ['role', { kind: 'code' }, {}, 0.5, 1],
  ])('[score-fresh] %s: the factor moves with its input', (factor, itemOver, reqOver, low, high) => {
    const lowItem = mk({ confidence: 0, durability: 'transient', phase: 'explore' });
    const highItem = mk({ durability: 'task', ...itemOver });
    expect(parts(lowItem, req(reqOver))[factor]).toBe(low);
    expect(parts(highItem, req(reqOver))[factor]).toBe(high);
    const q = prepareQuery(req(reqOver));
    expect(scoreItem(highItem, q).score).toBeGreaterThan(scoreItem(lowItem, q).score);
  });

  it('[score-fresh] a file in the same folder counts partly', () => {
    expect(parts(mk({ files: ['src/auth/other.ts'] }), req({ files: ['src/auth/store.ts'] })).files).toBeCloseTo(0.4);
    expect(parts(mk({ files: ['lib/x.ts'] }), req({ files: ['src/auth/store.ts'] })).files).toBe(0);
  });

  it('[score-fresh] recency halves every hour of age', () => {
    const r = req();
    expect(parts(mk({ at: T0 }), r).recency).toBe(1);
    expect(parts(mk({ at: T0 - RECENCY_HALF_LIFE_MS }), r).recency).toBeCloseTo(0.5, 10);
    expect(parts(mk({ at: T0 - 2 * RECENCY_HALF_LIFE_MS }), r).recency).toBeCloseTo(0.25, 10);
    expect(parts(mk({ at: T0 + 1000 }), r).recency).toBe(1);
  });

  it('[score-fresh] identifier parts match: refreshToken and refresh_token give refresh and token', () => {
    expect([...terms('refreshToken')].sort()).toEqual(['refresh', 'refreshtoken', 'token']);
    expect([...terms('refresh_token in the db')].sort()).toEqual(['refresh', 'refresh_token', 'token']);
  });

  it('[score-fresh] the same pool and request give the same order; ties break by id', () => {
    const pool = ['c', 'a', 'b'].map((id) => mk({ id }));
    const r = req();
    const once = retrieve(pool, r).map((s) => s.item.id);
    expect(once).toEqual(['a', 'b', 'c']);
    expect(retrieve([...pool].reverse(), r).map((s) => s.item.id)).toEqual(once);
  });

  it('[score-fresh] a changed request re-ranks the same pool', () => {
    const pool = [
      mk({ id: 'store', files: ['src/auth/store.ts'], content: 'saveToken writes the row' }),
      mk({ id: 'users', files: ['src/db/users.ts'], content: 'the users table migration' }),
    ];
    const byFile = (f: string) => retrieve(pool, req({ files: [f] })).map((s) => s.item.id);
    expect(byFile('src/auth/store.ts')).toEqual(['store', 'users']);
    expect(byFile('src/db/users.ts')).toEqual(['users', 'store']);
  });

  it('[score-fresh] every fresh generation scores the whole pool again (request and clock)', () => {
    const { engine, clock } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'store', kind: 'code', class: 'finding', files: ['src/auth/store.ts'] }));
    engine.addItem(item({ id: 'users', kind: 'code', class: 'finding', files: ['src/db/users.ts'], content: 'users table', symbols: [] }));
    const scoreOf = (g: { included: { item: { id: string }; score: number }[] }, id: string) => g.included.find((e) => e.item.id === id)!.score;

    const a = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] }).generation;
    const b = engine.rebuild('worker-1');
    expect(scoreOf(b.generation, 'store')).toBe(scoreOf(a, 'store'));
    expect(b.started).toBe(true);

    const c = engine.build('worker-1', { phase: 'implement', files: ['src/db/users.ts'] });
    const d = engine.rebuild('worker-1').generation;
    expect(c.started).toBe(false);
    expect(scoreOf(d, 'users')).toBeGreaterThan(scoreOf(a, 'users'));
    expect(scoreOf(d, 'store')).toBeLessThan(scoreOf(a, 'store'));

    clock.advance(3 * RECENCY_HALF_LIFE_MS);
    const e = engine.rebuild('worker-1').generation;
    expect(scoreOf(e, 'users')).toBeLessThan(scoreOf(d, 'users'));
  });
});
