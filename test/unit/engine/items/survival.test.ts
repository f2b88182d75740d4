import { describe, expect, it } from 'vitest';
import type { InfoClass } from '../../../../engine/items/ContextItem';
import { createItem } from '../../../../engine/items/createItem';
import { keepsAcrossRefresh, survivesRefresh } from '../../../../engine/items/survival';
import { identity, item, newEngine, T0 } from '../../../support/engineFixtures';
import { CLASSES } from '../../../support/enginePools';

const kept: Record<InfoClass, boolean> = { ephemeral: false, task_state: true, finding: true, project_memory: true, raw_history: false };

describe('[class-survival] what a refresh does to each class', () => {
  it.each(CLASSES.map((c) => [c, kept[c]] as const))('[class-survival] %s carries over: %s', (cls, survives) => {
    expect(survivesRefresh[cls]).toBe(survives);
    const i = createItem({ id: 'x', kind: 'note', class: cls, content: 'c', source: 'worker_finding', agentId: 'a', taskId: 't', at: T0 });
    expect(keepsAcrossRefresh(i)).toBe(survives);
    expect(keepsAcrossRefresh({ ...i, pinned: true })).toBe(true);
    expect(keepsAcrossRefresh({ ...i, mandatory: true })).toBe(true);
  });

  it('[class-survival] a refresh archives the agent\'s ephemeral items and raw history and keeps everything else', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.registerAgent(identity({ agentId: 'worker-2', taskId: 'task-db' }));
    for (const cls of CLASSES) {
      engine.addItem(item({ id: `mine-${cls}`, kind: 'note', class: cls, content: `mine ${cls}` }));
      engine.addItem(item({ id: `other-${cls}`, kind: 'note', class: cls, content: `other ${cls}`, agentId: 'worker-2' }));
    }
    engine.addItem(item({ id: 'pinned-eph', kind: 'note', class: 'ephemeral', pinned: true, content: 'pinned ephemeral' }));
    engine.addItem(item({ id: 'mandatory-hist', kind: 'transcript', class: 'raw_history', mandatory: true, content: 'mandatory history' }));
    engine.build('worker-1', { phase: 'implement' });

    const r = engine.refresh('worker-1', 'test');
    expect(r.droppedItems.sort()).toEqual(['mine-ephemeral', 'mine-raw_history']);
    expect(engine.archived().map((i) => i.id).sort()).toEqual(['mine-ephemeral', 'mine-raw_history']);
    const pool = engine.items().map((i) => i.id);
    for (const id of ['mine-task_state', 'mine-finding', 'mine-project_memory', 'pinned-eph', 'mandatory-hist', ...CLASSES.map((c) => `other-${c}`)]) {
      expect(pool).toContain(id);
    }
    expect(pool).not.toContain('mine-ephemeral');
    expect(pool).not.toContain('mine-raw_history');
    // The archive keeps the items whole for observability.
    expect(engine.archived().find((i) => i.id === 'mine-raw_history')?.content).toBe('mine raw_history');
    // And the new generation no longer holds them.
    const g = r.result.generation;
    const everywhere = [...g.included, ...g.dropped].map((e) => e.item.id);
    expect(everywhere).not.toContain('mine-ephemeral');
    expect(g.included.map((e) => e.item.id)).toContain('pinned-eph');
  });

  it('[class-survival] task state and findings of the agent are in the next generation', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'state', kind: 'note', class: 'task_state', content: 'Blocked on the migration of src/db/users.ts', relevance: 1 }));
    engine.addItem(item({ id: 'finding', kind: 'finding', class: 'finding', source: 'verified_fact' }));
    engine.build('worker-1', { phase: 'implement', files: ['src/auth/store.ts'] });
    const r = engine.refresh('worker-1', 'test');
    expect(r.persistedFindings).toEqual(['finding']);
    expect(r.result.generation.included.map((e) => e.item.id)).toEqual(expect.arrayContaining(['state', 'finding']));
  });
});
