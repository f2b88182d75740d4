import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createItem } from '../../../../engine/items/createItem';
import { PoolIndex } from '../../../../engine/retrieve/PoolIndex';
import { prepareQuery, scoreItem } from '../../../../engine/retrieve/score';
import { scoreAll } from '../../../../engine/retrieve/scoreAll';
import type { RetrieveRequest } from '../../../../engine/retrieve/RetrieveRequest';
import { T0 } from '../../../support/engineFixtures';
import { phase, pool } from '../../../support/enginePools';

const ROLES = ['primary', 'worker', 'debug', 'probe', 'reviewer', 'architect', 'test', 'integration'] as const;

describe('scoreAll', () => {
  it('[score-fresh] scores every slot exactly as scoreItem does, for random pools and requests', () => {
    fc.assert(
      fc.property(
        pool(60),
        fc.record({
          phase,
          files: fc.subarray(['src/auth/refresh.ts', 'src/auth/store.ts', 'src/db/migrate.ts', 'README.md', 'src/other/x.ts']),
          symbols: fc.subarray(['saveToken', 'rotateRefreshToken', 'migrate', 'nothing']),
          keywords: fc.subarray(['refresh', 'token', 'database', 'migration', 'session', 'src']),
          failures: fc.subarray(['expected 200, got 401', 'FOREIGN KEY constraint failed']),
          role: fc.constantFrom(...ROLES),
          taskId: fc.constantFrom('task-auth', 'task-db', 'task-none'),
          ageMs: fc.integer({ min: 0, max: 48 * 3600_000 }),
        }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (inputs, r, removals) => {
          const items = inputs.map((i, n) => createItem({ ...i, symbols: n % 3 === 0 ? [] : n % 3 === 1 ? ['saveToken'] : ['migrate', 'rotateRefreshToken'] }));
          const index = new PoolIndex(items);
          for (const k of removals) if (items.length > 0) index.remove((items[k % items.length] as (typeof items)[number]).id);
          const request: RetrieveRequest = { taskId: r.taskId, task: 'Implement refresh token rotation', files: r.files, symbols: r.symbols, keywords: r.keywords, role: r.role, phase: r.phase, failures: r.failures, now: T0 + r.ageMs };
          const q = prepareQuery(request);
          const { scores, parts } = scoreAll(index, q);
          for (let slot = 0; slot < index.arrivals; slot++) {
            const item = index.itemAt(slot);
            if (item) {
              const reference = scoreItem(item, q);
              expect(scores[slot]).toBe(reference.score);
              expect(parts(slot)).toEqual(reference.parts);
            } else expect(scores[slot]).toBeNaN();
          }
        },
      ),
      { seed: 20261129, numRuns: 150 },
    );
  });

  it('[score-fresh] scores a replaced item (pinned, promoted) by its new value', () => {
    const base = { kind: 'note' as const, class: 'ephemeral' as const, source: 'worker_finding' as const, agentId: 'a', taskId: 'task-auth', at: T0, files: ['src/auth/refresh.ts'] };
    const a = createItem({ ...base, id: 'a', content: 'refresh token rotation', phase: 'verify' });
    const index = new PoolIndex([a, createItem({ ...base, id: 'b', content: 'other' })]);
    const promoted = { ...a, class: 'finding' as const, kind: 'finding' as const, pinned: true, provenance: { ...a.provenance, durability: 'project' as const } };
    index.replace(promoted);
    const q = prepareQuery({ taskId: 'task-auth', task: 'refresh', files: ['src/auth/refresh.ts'], symbols: [], keywords: [], role: 'reviewer', phase: 'verify', failures: [], now: T0 });
    const { scores } = scoreAll(index, q);
    expect(scores[0]).toBe(scoreItem(promoted, q).score);
    expect(scores[0]).not.toBe(scoreItem(a, q).score);
    expect(index.tier.data[0]).toBe(1);
  });
});
