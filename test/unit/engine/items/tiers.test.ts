import { describe, expect, it } from 'vitest';
import type { ItemKind, Source } from '../../../../engine/items/ContextItem';
import { createItem } from '../../../../engine/items/createItem';
import { isStableKind, tierOf } from '../../../../engine/items/tiers';
import { retrieve } from '../../../../engine/retrieve/retrieve';
import { identity, item, newEngine, T0 } from '../../../support/engineFixtures';

const make = (kind: ItemKind, over: { source?: Source; pinned?: boolean; mandatory?: boolean; verified?: boolean } = {}) => {
  const i = createItem({ id: 'x', kind, class: 'finding', content: 'c', source: over.source ?? 'worker_finding', agentId: 'a', taskId: 't', at: T0, pinned: over.pinned, mandatory: over.mandatory });
  return over.verified ? { ...i, provenance: { ...i.provenance, verified: true } } : i;
};

describe('[tiers] packing priority', () => {
  it.each([
    ['objective', {}, 1],
    ['task', {}, 1],
    ['acceptance', {}, 1],
    ['constraint', {}, 1],
    ['tool_output', { pinned: true }, 1],
    ['note', { mandatory: true }, 1],
    ['code', {}, 2],
    ['failure', {}, 2],
    ['finding', { verified: true }, 2],
    ['decision', { verified: true }, 2],
    ['finding', {}, 4],
    ['decision', {}, 4],
    ['tool_output', { source: 'test_result' }, 2],
    ['note', { source: 'test_result' }, 2],
    ['architecture', {}, 3],
    ['report', {}, 3],
    ['tool_output', {}, 4],
    ['transcript', {}, 4],
    ['note', {}, 4],
    ['input', {}, 4],
  ] as const)('[tiers] %s %j is tier %d', (kind, over, tier) => {
    expect(tierOf(make(kind, over))).toBe(tier);
  });

  it('[tiers] only objective, task, acceptance and constraint are stable (L1) kinds', () => {
    const kinds: ItemKind[] = ['objective', 'task', 'acceptance', 'constraint', 'code', 'failure', 'finding', 'decision', 'architecture', 'report', 'tool_output', 'transcript', 'note', 'input'];
    expect(kinds.filter((k) => isStableKind(make(k)))).toEqual(['objective', 'task', 'acceptance', 'constraint']);
  });

  it('[tiers] a higher tier wins the room even against a much better-scoring lower tier', () => {
    // Room for about one block: the tier-3 report enters, the more relevant tier-4 note does not.
    const { engine } = newEngine({ compressMinTokens: 10_000 });
    engine.registerAgent(identity({ budget: 1000 }));
    const words = 'refresh token rotation src/auth/refresh.ts rotateRefreshToken '.repeat(18);
    engine.addItem(item({ id: 'note', kind: 'note', class: 'task_state', content: words, relevance: 1, confidence: 1, files: ['src/auth/refresh.ts'] }));
    engine.addItem(item({ id: 'report', kind: 'report', class: 'finding', source: 'parent_report', content: 'Unrelated report about the billing export. '.repeat(8), files: [], symbols: [], confidence: 0, at: T0 - 24 * 3600_000 }));
    const req = { phase: 'implement', files: ['src/auth/refresh.ts'], keywords: ['refresh', 'token'] };
    const g = engine.build('worker-1', req).generation;
    const scored = retrieve(engine.items(), { ...req, taskId: 'task-auth', task: identity().task, symbols: [], role: 'worker', failures: [], now: T0 });
    expect(scored.map((s) => s.item.id)).toEqual(['note', 'report']);
    expect(scored[0]!.score).toBeGreaterThan(scored[1]!.score + 0.3);
    expect(g.included.map((e) => [e.item.id, e.tier])).toEqual([['report', 3]]);
    expect(g.dropped.find((d) => d.item.id === 'note')?.reason).toMatch(/^budget: needs \d+ tokens/);
    expect(g.included[0]!.why).toMatch(/^tier 3 \(architecture, parent reports\)/);
  });

  it('[tiers] the why of an entry names its tier', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'obj', kind: 'objective', class: 'task_state', content: 'Rotate refresh tokens.' }));
    engine.addItem(item({ id: 'code', kind: 'code', class: 'finding', source: 'repository_source' }));
    engine.addItem(item({ id: 'arch', kind: 'architecture', class: 'project_memory' }));
    engine.addItem(item({ id: 'pin', kind: 'note', class: 'ephemeral', pinned: true }));
    const g = engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] }).generation;
    const why = Object.fromEntries(g.included.map((e) => [e.item.id, [e.tier, e.why.split(',')[0]]]));
    expect(why).toEqual({
      obj: [1, 'tier 1 (objective'],
      pin: [1, 'pinned by a user'],
      code: [2, 'tier 2 (code'],
      arch: [3, 'tier 3 (architecture'],
    });
  });
});
