import { describe, expect, it } from 'vitest';
import type { RecalledEntry } from '../../../../../engine/EngineTypes';
import type { EngineEvent } from '../../../../../engine/EngineEvent';
import type { Generation } from '../../../../../engine/generations/Generation';
import { RECALL_HEADING, renderRecalled } from '../../../../../engine/memory/recall/renderRecalled';
import { identity, newEngine, taskItems, T0 } from '../../../../support/engineFixtures';
import { memoryRecord } from '../../../../support/memoryFixtures';

/** A recalled entry as the host hands it to the engine. */
function recalled(memoryId: string, body = `Observation of ${memoryId}.`): RecalledEntry {
  const r = memoryRecord({ id: memoryId, body });
  return { memoryId, text: renderRecalled(r), observedAt: r.provenance.observedAt, confidence: r.provenance.confidence, paths: [...r.evidence.paths] };
}

function setup() {
  const { engine, clock } = newEngine();
  engine.registerAgent(identity({ agentId: 'worker-1' }));
  engine.registerAgent(identity({ agentId: 'worker-2', taskId: 'task-store', task: 'Migrate the token store in src/auth/store.ts' }));
  for (const i of taskItems()) engine.addItem(i);
  const events: EngineEvent[] = [];
  engine.on((e) => events.push(e));
  return { engine, clock, events };
}

const includedIds = (g: Generation) => g.included.map((e) => e.item.id);
const recallIds = (ids: readonly string[]) => ids.filter((id) => id.startsWith('recall:'));
const poolRecall = (engine: ReturnType<typeof newEngine>['engine']) => recallIds(engine.items().map((i) => i.id)).sort();

describe('Engine.setRecall', () => {
  it('[recall-render] recalled entries enter as recalled_memory project memory, unverified, addressed to their agent', () => {
    const { engine } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    const item = engine.item('recall:worker-1:mem_aaaaaaaa');
    expect(item).toMatchObject({ kind: 'note', class: 'project_memory', audience: 'worker-1', provenance: { source: 'recalled_memory', verified: false, agentId: 'worker-1', durability: 'project' } });
    expect(item.content.startsWith(`${RECALL_HEADING}\n`)).toBe(true);
    expect(item.provenance.files).toEqual(['src/auth/refresh.ts']);
  });

  it('[recall-render] the addressee gets the entry; another agent drops it as addressed to that agent only', () => {
    const { engine } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    const own = engine.build('worker-1', { phase: 'implement' });
    expect(includedIds(own.generation)).toContain('recall:worker-1:mem_aaaaaaaa');
    expect(own.text).toContain(RECALL_HEADING);

    const other = engine.build('worker-2', { phase: 'implement' });
    expect(includedIds(other.generation)).not.toContain('recall:worker-1:mem_aaaaaaaa');
    expect(other.generation.dropped.find((d) => d.item.id === 'recall:worker-1:mem_aaaaaaaa')?.reason).toBe('addressed to worker-1 only');
    expect(other.text).not.toContain(RECALL_HEADING);
  });

  it('[recall-render] an entry added while another agent is mid-generation is dropped there too (append path)', () => {
    const { engine } = setup();
    engine.build('worker-2', { phase: 'implement' });
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    const again = engine.build('worker-2', { phase: 'implement' });
    expect(again.started).toBe(false);
    expect(includedIds(again.generation)).not.toContain('recall:worker-1:mem_aaaaaaaa');
    expect(again.generation.dropped.find((d) => d.item.id === 'recall:worker-1:mem_aaaaaaaa')?.reason).toBe('addressed to worker-1 only');
  });

  it('[recall-replace] a second setRecall removes entries no longer recalled and adds the new ones', () => {
    const { engine, events } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa'), recalled('mem_bbbbbbbb')]);
    const firstB = engine.item('recall:worker-1:mem_bbbbbbbb');
    events.length = 0;
    engine.setRecall('worker-1', [recalled('mem_bbbbbbbb'), recalled('mem_cccccccc')]);
    expect(poolRecall(engine)).toEqual(['recall:worker-1:mem_bbbbbbbb', 'recall:worker-1:mem_cccccccc']);
    // The kept entry is the same item (no remove-and-add churn); only the difference is announced.
    expect(engine.item('recall:worker-1:mem_bbbbbbbb')).toBe(firstB);
    expect(events.map((e) => (e.type === 'item.removed' ? `removed ${e.itemId}` : e.type === 'item.added' ? `added ${e.item.id}` : e.type))).toEqual([
      'removed recall:worker-1:mem_aaaaaaaa',
      'added recall:worker-1:mem_cccccccc',
    ]);
  });

  it("[recall-replace] one agent's recall leaves another agent's group alone", () => {
    const { engine } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    engine.setRecall('worker-2', [recalled('mem_aaaaaaaa'), recalled('mem_dddddddd')]);
    engine.setRecall('worker-1', []);
    expect(poolRecall(engine)).toEqual(['recall:worker-2:mem_aaaaaaaa', 'recall:worker-2:mem_dddddddd']);
  });

  it('[recall-replace] setRecall(agent, []) removes the whole group; other items stay', () => {
    const { engine } = setup();
    const before = engine.items().length;
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa'), recalled('mem_bbbbbbbb')]);
    engine.setRecall('worker-1', []);
    expect(poolRecall(engine)).toEqual([]);
    expect(engine.items()).toHaveLength(before);
    expect(engine.build('worker-1', { phase: 'implement' }).text).not.toContain(RECALL_HEADING);
  });

  it('[recall-replace] an entry emitted in the current generation stays in its L2 without a rebuild, and is gone from the next fresh generation', () => {
    const { engine, clock } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa', 'Old observation A.')]);
    const first = engine.build('worker-1', { phase: 'implement' });
    expect(includedIds(first.generation)).toContain('recall:worker-1:mem_aaaaaaaa');
    const l2Before = first.prompt.layers.L2;
    expect(l2Before).toContain('Old observation A.');

    clock.set(T0 + 60_000);
    engine.setRecall('worker-1', [recalled('mem_bbbbbbbb', 'New observation B.')]);
    expect(poolRecall(engine)).toEqual(['recall:worker-1:mem_bbbbbbbb']);
    const second = engine.build('worker-1', { phase: 'implement' });
    expect(second.started).toBe(false);
    expect(second.generation.number).toBe(first.generation.number);
    // L2 only appends: A keeps its place (the cached prefix survives), B follows it.
    expect(second.prompt.layers.L2.startsWith(l2Before)).toBe(true);
    expect(includedIds(second.generation)).toEqual(expect.arrayContaining(['recall:worker-1:mem_aaaaaaaa', 'recall:worker-1:mem_bbbbbbbb']));
    expect(second.prompt.layers.L2).toContain('New observation B.');

    const fresh = engine.rebuild('worker-1', 'next boundary');
    expect(fresh.started).toBe(true);
    expect(fresh.generation.number).toBe(first.generation.number + 1);
    expect(recallIds(includedIds(fresh.generation))).toEqual(['recall:worker-1:mem_bbbbbbbb']);
    expect(fresh.text).not.toContain('Old observation A.');
    expect(fresh.text).toContain('New observation B.');
    // The earlier generation is kept as it was emitted.
    expect(includedIds(engine.generation('worker-1', first.generation.number))).toContain('recall:worker-1:mem_aaaaaaaa');
  });

  it('[recall-replace] recalling the same set again changes nothing and keeps the prompt byte-identical', () => {
    const { engine, events } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    const first = engine.build('worker-1', { phase: 'implement' });
    events.length = 0;
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    expect(events.filter((e) => e.type === 'item.added' || e.type === 'item.removed')).toEqual([]);
    const second = engine.build('worker-1', { phase: 'implement' });
    expect(second.started).toBe(false);
    expect(second.text).toBe(first.text);
  });

  it('[recall-replace] an entry recalled again after being dropped comes back into the pool', () => {
    const { engine } = setup();
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    engine.setRecall('worker-1', []);
    engine.setRecall('worker-1', [recalled('mem_aaaaaaaa')]);
    expect(poolRecall(engine)).toEqual(['recall:worker-1:mem_aaaaaaaa']);
    expect(includedIds(engine.build('worker-1', { phase: 'implement' }).generation)).toContain('recall:worker-1:mem_aaaaaaaa');
  });
});
