import { describe, expect, it } from 'vitest';
import { ARCHIVE_KEPT, COMPACT_MIN_REMOVED, DURABLE_KEPT_PER_AGENT } from '../../../../engine/items/retention';
import type { EngineEvent } from '../../../../engine/EngineEvent';
import type { Scope } from '../../../../engine/pack/Scope';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

/** An ephemeral grep of worker-1 (or `agentId`) that scores low for the worker's task. */
const grep = (id: string, agentId = 'worker-1') =>
  item({ id, kind: 'tool_output', class: 'ephemeral', title: `grep ${id}`, content: `grep hit ${id} in vendor/unrelated/${id}.txt`, files: [`vendor/unrelated/${id}.txt`], symbols: [], agentId });

function setup(scope: Scope = {}) {
  const { engine } = newEngine();
  engine.registerAgent(identity({ scope }));
  engine.registerAgent(identity({ agentId: 'worker-2', taskId: 'task-db' }));
  for (const i of taskItems()) engine.addItem(i);
  const removed: string[] = [];
  engine.on((e: EngineEvent) => {
    if (e.type === 'item.removed') removed.push(e.itemId);
  });
  return { engine, removed };
}

const ids = (engine: ReturnType<typeof newEngine>['engine']) => engine.items().map((i) => i.id);

describe('[ephemeral-expiry] an agent that only rebuilds does not keep every grep it made', () => {
  it('[ephemeral-expiry] an item two fresh packs passed over leaves the pool at the agent\'s next boundary, for the archive', () => {
    const { engine, removed } = setup();
    engine.addItem(grep('old'));
    engine.build('worker-1', { phase: 'implement' }); // generation 1 weighs "old" and leaves it out
    engine.addItem(grep('during-1'));
    engine.build('worker-1', { phase: 'implement' });
    expect(engine.generation('worker-1', 1).included.map((e) => e.item.id)).not.toContain('old');

    engine.rebuild('worker-1'); // generation 2: a second fresh pack passes "old" over
    expect(removed).toEqual(['old']);
    expect(ids(engine)).not.toContain('old');
    expect(engine.archived().map((i) => i.id)).toEqual(['old']);
    // "during-1" arrived after generation 1 began: one fresh pack has weighed it so far.
    expect(ids(engine)).toContain('during-1');

    engine.rebuild('worker-1'); // generation 3
    expect(removed).toEqual(['old', 'during-1']);
  });

  it('[ephemeral-expiry] nothing expires inside a generation, and what the new generation takes stays', () => {
    const { engine, removed } = setup();
    const relevant = item({ id: 'relevant-read', kind: 'code', class: 'ephemeral', title: 'src/auth/refresh.ts', content: 'export function rotateRefreshToken() { /* refresh token rotation */ }', files: ['src/auth/refresh.ts'] });
    engine.addItem(relevant);
    engine.addItem(grep('old'));
    engine.build('worker-1', { phase: 'implement' });
    for (let n = 0; n < 5; n++) engine.build('worker-1', { phase: 'implement' });
    expect(removed).toEqual([]);
    engine.rebuild('worker-1');
    const g2 = engine.generation('worker-1', 2).included.map((e) => e.item.id);
    expect(g2).toContain('relevant-read');
    expect(ids(engine)).toContain('relevant-read');
    expect(removed).toEqual(['old']);
  });

  it('[ephemeral-expiry] only the agent\'s own ephemeral items and raw history expire; durable classes, pins, other agents\' items and items another generation holds stay', () => {
    // worker-1 takes no ephemeral material at all, so every ephemeral item is passed over.
    const { engine, removed } = setup({ classes: ['task_state', 'finding', 'project_memory', 'raw_history'] });
    engine.addItem(grep('mine'));
    engine.addItem(item({ id: 'my-transcript', kind: 'transcript', class: 'raw_history', title: 'turn', content: 'I looked at vendor/unrelated again.', files: [], symbols: [] }));
    engine.addItem({ ...grep('pinned'), pinned: true });
    engine.addItem({ ...grep('mandatory'), mandatory: true });
    engine.addItem(item({ id: 'my-state', kind: 'note', class: 'task_state', title: 'state', content: 'vendor/unrelated is irrelevant', files: [], symbols: [] }));
    engine.addItem(grep('theirs', 'worker-2'));
    // worker-2's current generation holds this one of worker-1's greps (it is about worker-2's files).
    engine.addItem(item({ id: 'shared', kind: 'tool_output', class: 'ephemeral', title: 'grep migrate', content: 'src/db/migrate.ts: export function migrate()', files: ['src/db/migrate.ts'], symbols: ['migrate'] }));
    engine.build('worker-2', { phase: 'implement', files: ['src/db/migrate.ts'], symbols: ['migrate'] });
    expect(engine.generation('worker-2', 1).included.map((e) => e.item.id)).toContain('shared');
    engine.build('worker-1', { phase: 'implement' });
    engine.rebuild('worker-1');
    expect(engine.generation('worker-1', 2).included.map((e) => e.item.id)).not.toContain('shared');
    expect(removed.sort()).toEqual(['mine', 'my-transcript']);
    for (const id of ['pinned', 'mandatory', 'my-state', 'theirs', 'shared']) expect(ids(engine)).toContain(id);
  });

  it('[bounded-history] the archive keeps the newest items it was given', () => {
    const { engine } = setup();
    engine.build('worker-1', { phase: 'implement' });
    for (let n = 0; n < ARCHIVE_KEPT + 50; n++) engine.addItem(grep(`g${n}`));
    engine.refresh('worker-1', 'test');
    const archived = engine.archived().map((i) => i.id);
    expect(archived).toHaveLength(ARCHIVE_KEPT);
    expect(archived[0]).toBe('g50');
    expect(archived.at(-1)).toBe(`g${ARCHIVE_KEPT + 49}`);
  });
});

describe('[pool-compaction] the engine compacts its pool and keeps building correctly', () => {
  it('[pool-compaction] after enough removals the pool drops the dead slots; appends and fresh packs see every live item once', () => {
    const { engine } = setup();
    engine.build('worker-2', { phase: 'implement' });
    engine.build('worker-1', { phase: 'implement' });
    const before = (engine as unknown as { pool: { removed: number; arrivals: number } }).pool;
    for (let n = 0; n < COMPACT_MIN_REMOVED + 10; n++) engine.addItem(grep(`g${n}`));
    // worker-2 has seen everything so far; what arrives next must reach it exactly once.
    engine.build('worker-2', { phase: 'implement' });
    const dropped2 = engine.generation('worker-2', 1).dropped.length;
    engine.refresh('worker-1', 'test'); // removes worker-1's greps: more dead slots than live ones
    expect(before.removed).toBe(0);
    expect(before.arrivals).toBe(engine.items().length);

    engine.addItem(item({ id: 'after-compaction', kind: 'finding', class: 'finding', agentId: 'worker-1', taskId: 'task-db', title: 'migrate', content: 'src/db/migrate.ts: migrate() must run in a transaction', files: ['src/db/migrate.ts'], symbols: ['migrate'] }));
    const r = engine.build('worker-2', { phase: 'implement', files: ['src/db/migrate.ts'] });
    expect(r.started).toBe(false);
    const included = engine.generation('worker-2', 1).included.map((e) => e.item.id);
    expect(included.filter((id) => id === 'after-compaction')).toHaveLength(1);
    expect(new Set(included).size).toBe(included.length);
    // Dropped entries recorded before the compaction still name the items they named.
    expect(engine.generation('worker-2', 1).dropped.length).toBeGreaterThanOrEqual(dropped2);
    for (const d of engine.generation('worker-2', 1).dropped) expect(d.item.id).toMatch(/^(g\d+|constraint-1|objective|acceptance|after-compaction)$/);

    const fresh = engine.rebuild('worker-2');
    expect(fresh.generation.included.map((e) => e.item.id)).toContain('after-compaction');
    expect(fresh.generation.included.some((e) => e.item.id.startsWith('g'))).toBe(false);
  });
});

describe('[agent-end] a finished agent leaves no transient material behind', () => {
  it('[agent-end] its ephemeral items and raw history leave the pool now, except what another agent\'s generation holds, which leaves at a later boundary', () => {
    const { engine, removed } = setup();
    engine.addItem(grep('mine'));
    engine.addItem(item({ id: 'my-transcript', kind: 'transcript', class: 'raw_history', title: 'turn', content: 'done with vendor/unrelated', files: [], symbols: [] }));
    engine.addItem(item({ id: 'my-finding', kind: 'finding', class: 'finding', title: 'finding', content: 'src/db/migrate.ts needs a transaction', files: ['src/db/migrate.ts'], symbols: ['migrate'] }));
    engine.addItem(item({ id: 'shared', kind: 'tool_output', class: 'ephemeral', title: 'grep migrate', content: 'src/db/migrate.ts: export function migrate()', files: ['src/db/migrate.ts'], symbols: ['migrate'] }));
    engine.build('worker-1', { phase: 'implement' });
    engine.build('worker-2', { phase: 'implement', files: ['src/db/migrate.ts'], symbols: ['migrate'] });
    expect(engine.generation('worker-2', 1).included.map((e) => e.item.id)).toContain('shared');

    engine.endAgent('worker-1');
    expect(removed.sort()).toEqual(['mine', 'my-transcript']);
    expect(ids(engine)).toEqual(expect.arrayContaining(['shared', 'my-finding']));
    // Its generations stay inspectable.
    expect(engine.generation('worker-1', 1).included.length).toBeGreaterThan(0);
    // worker-2 keeps "shared" while its generation holds it, with no forced rebuild.
    expect(engine.build('worker-2', { phase: 'implement', files: ['src/db/migrate.ts'] }).started).toBe(false);
    expect(ids(engine)).toContain('shared');
    // worker-2's next generation is a boundary; "shared" is about its files, so it takes it again and it stays.
    engine.rebuild('worker-2');
    expect(ids(engine)).toContain('shared');
    // worker-2 moves to another phase and other files: once no current generation holds it, that boundary lets it go.
    expect(engine.build('worker-2', { phase: 'verify', files: ['src/ui/panel.tsx'] }).started).toBe(true);
    expect(ids(engine)).not.toContain('shared');
    expect(ids(engine)).toContain('my-finding');
    expect(engine.archived().map((i) => i.id)).toEqual(expect.arrayContaining(['mine', 'my-transcript', 'shared']));
  });

  it('[agent-end] ending twice changes nothing more, an unknown agent is refused, and a later build takes the agent up again', () => {
    const { engine, removed } = setup();
    engine.build('worker-1', { phase: 'implement' });
    engine.endAgent('worker-1');
    engine.endAgent('worker-1');
    expect(() => engine.endAgent('ghost')).toThrow(/No agent "ghost"/);
    engine.addItem(grep('later'));
    const r = engine.build('worker-1', { phase: 'implement' });
    expect(r.generation.number).toBe(1);
    expect(ids(engine)).toContain('later');
    expect(removed).toEqual([]);
  });
});

describe('[durable-cap] a long-working agent keeps a bounded number of task-state items and findings', () => {
  const finding = (n: number, agentId = 'worker-1') =>
    item({ id: `f${n}`, kind: 'note', class: n % 2 ? 'finding' : 'task_state', title: `note ${n}`, content: `observation ${n} about vendor/unrelated/${n}.txt`, files: [`vendor/unrelated/${n}.txt`], symbols: [], agentId });

  it('[durable-cap] past the cap the oldest unheld ones leave for the archive at the next generation; pinned, verified, mandatory and held ones stay', () => {
    const { engine, removed } = setup();
    const extra = 10;
    engine.addItem({ ...finding(-1), pinned: true });
    engine.addItem({ ...finding(-2), mandatory: true });
    engine.addItem(finding(-3));
    engine.verify('f-3');
    for (let n = 0; n < DURABLE_KEPT_PER_AGENT + extra; n++) engine.addItem(finding(n));
    for (let n = 0; n < 5; n++) engine.addItem({ ...finding(n, 'worker-2'), id: `w2-${n}` });
    const protectedIds = new Set(['f-1', 'f-2', 'f-3']);
    const counted = engine.items().filter((i) => i.provenance.agentId === 'worker-1' && (i.class === 'task_state' || i.class === 'finding') && !protectedIds.has(i.id) && !i.mandatory);
    engine.build('worker-1', { phase: 'implement' }); // generation 1 starts: the cap applies
    const held = new Set(engine.generation('worker-1', 1).included.map((e) => e.item.id));
    const expected = counted.map((i) => i.id).filter((id) => !held.has(id)).slice(0, counted.length - DURABLE_KEPT_PER_AGENT);
    expect(expected.length).toBeGreaterThanOrEqual(extra);
    // Builds inside the generation change nothing more.
    engine.build('worker-1', { phase: 'implement' });
    const own = (id: string) => /^f\d+$/.test(id);
    // The excess of worker-1's unprotected notes left, oldest first among those not held.
    expect(removed).toEqual(expected);
    expect(removed.every(own)).toBe(true);
    expect(removed.some((id) => held.has(id))).toBe(false);
    expect(engine.archived().map((i) => i.id)).toEqual(expected);
    const live = ids(engine);
    for (const id of ['f-1', 'f-2', 'f-3']) expect(live).toContain(id);
    expect(engine.items().filter((i) => i.provenance.agentId === 'worker-1' && (i.class === 'task_state' || i.class === 'finding') && !protectedIds.has(i.id) && !i.mandatory)).toHaveLength(DURABLE_KEPT_PER_AGENT);
    // worker-2's notes are its own business.
    expect(engine.items().filter((i) => i.id.startsWith('w2-'))).toHaveLength(5);
  });

  it('[durable-cap] at or under the cap nothing leaves', () => {
    const { engine, removed } = setup();
    const counted = engine.items().filter((i) => i.provenance.agentId === 'worker-1' && (i.class === 'task_state' || i.class === 'finding') && !i.pinned && !i.mandatory).length;
    for (let n = counted; n < DURABLE_KEPT_PER_AGENT; n++) engine.addItem(finding(n));
    engine.build('worker-1', { phase: 'implement' });
    engine.rebuild('worker-1');
    engine.rebuild('worker-1');
    expect(removed).toEqual([]);
    // One more is one too many.
    engine.addItem(finding(DURABLE_KEPT_PER_AGENT));
    engine.rebuild('worker-1');
    expect(removed).toHaveLength(1);
  });
});
