import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, MemoryEntryDto } from '../../../engine/contract';
import { PURGE_CONFIRMATION } from '../../../engine/contract';
import { Host, type HostOptions } from '../../../engine/host';
import { RECALL_HEADING } from '../../../engine/memory/recall/renderRecalled';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { quarterTokenizer } from '../../support/engineFixtures';
import { demoDir, tempDir } from '../../support/tempDir';

/** Roles that get project memory recalled (`[recall-roles]`); probes and reviewers never do. */
const RECALLING = new Set(['primary', 'worker', 'debug', 'integration', 'architect', 'test']);

let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(() => {
  host?.close();
  tmp?.remove();
  host = undefined;
  tmp = undefined;
});

function open(over: Partial<HostOptions> = {}) {
  tmp = tempDir('strata-recall-');
  const scheduler = manualScheduler();
  const options: HostOptions = {
    catalogPath: join(tmp.dir, 'catalog.sqlite'),
    workspaceName: 'demo',
    version: '0.0.0-test',
    demoDir,
    demoTickMs: 100,
    clock: manualClock(Date.parse('2026-11-29T12:00:00Z')),
    scheduler,
    tokenizer: quarterTokenizer,
    ...over,
  };
  const h = Host.open(options);
  host = h;
  const conn = h.connect(() => {});
  const call = async <T>(name: CommandName, args: unknown): Promise<T> => {
    const env = await conn.call(name, args);
    if (!env.ok) throw new Error(`${name} failed: ${env.error.code}: ${env.error.message}`);
    return env.value as T;
  };
  /** Play `n` turns of the demo run. */
  const play = async (n: number) => {
    for (let i = 0; i < n; i++) await h.stepDemo();
  };
  /** Play until `done()` holds (at most `limit` turns); fails the test if it never does. */
  const playUntil = async (done: () => boolean, limit = 200) => {
    for (let i = 0; i < limit && !done(); i++) await h.stepDemo();
    expect(done()).toBe(true);
  };
  return { host: h, scheduler, call, play, playUntil, catalogPath: options.catalogPath };
}

/** The first finding an agent stated in the demo run. */
const firstFinding = (h: Host) => h.engine.items().find((i) => i.kind === 'finding' && i.provenance.source === 'worker_finding');
/** Turns each agent of the current run has taken. */
const turnsOf = (h: Host) => new Map(h.runs.current!.runtime.agentIds().map((id) => [id, h.runs.current!.runtime.turns(id)]));
const roleOf = (h: Host, agentId: string) => h.engine.identity(agentId).role;

/** Promote the first stated finding to project memory through the contract, then verify it. */
async function promoteAndVerify(h: Host, call: ReturnType<typeof open>['call']): Promise<MemoryEntryDto> {
  const finding = firstFinding(h)!.id;
  const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: finding });
  expect(entry).toMatchObject({ state: 'candidate', verified: false, revision: 1, provenance: { itemId: finding } });
  const verified = await call<{ entry: MemoryEntryDto }>('verifyMemory', { id: entry.id, revision: entry.revision });
  expect(verified.entry).toMatchObject({ id: entry.id, state: 'verified', verified: true, revision: 2 });
  return verified.entry;
}

/** Every recalled item id in any generation of an agent. */
const recalledIn = (h: Host, agentId: string) =>
  h.engine.generations(agentId).flatMap((g) => g.included.filter((e) => e.item.id.startsWith('recall:')).map((e) => ({ generation: g.number, item: e.item })));

/** Rows of the catalog's items table for recalled memory, read from the file itself. */
function recallRows(catalogPath: string): { id: string; removed: number; content: string }[] {
  const db = new Database(catalogPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id, removed, content FROM items WHERE id LIKE 'recall:%' ORDER BY id").all() as { id: string; removed: number; content: string }[];
  } finally {
    db.close();
  }
}

describe('Host recall in the demo workspace', () => {
  it('[recall-roles] a verified promoted finding is recalled into the next builds of recalling agents, headed as untrusted', async () => {
    const { host: h, call, play, playUntil } = open();
    await playUntil(() => firstFinding(h) !== undefined);
    const entry = await promoteAndVerify(h, call);
    const before = turnsOf(h);
    await play(150);
    const after = turnsOf(h);
    let recalling = 0;
    for (const [agentId, turns] of after) {
      const built = turns > (before.get(agentId) ?? 0);
      if (!built) continue;
      const got = recalledIn(h, agentId);
      if (roleOf(h, agentId) === 'probe' || roleOf(h, agentId) === 'reviewer') {
        expect(got, agentId).toEqual([]);
        expect(h.engine.items().filter((i) => i.id.startsWith(`recall:${agentId}:`)), agentId).toEqual([]);
        expect(h.engine.lastPrompt(agentId)).not.toContain(RECALL_HEADING);
      } else if (RECALLING.has(roleOf(h, agentId))) {
        // Recall is optional material: it is offered to every recalling agent, and enters unless its budget is full.
        const id = `recall:${agentId}:${entry.id}`;
        expect(h.engine.items().some((i) => i.id === id), agentId).toBe(true);
        const hit = got.find((x) => x.item.id === id);
        if (!hit) {
          const reasons = h.engine.generations(agentId).flatMap((g) => g.dropped.filter((d) => d.item.id === id).map((d) => d.reason));
          expect(reasons.length, agentId).toBeGreaterThan(0);
          expect(reasons.every((r) => r.startsWith('budget')), `${agentId}: ${reasons.join('; ')}`).toBe(true);
          continue;
        }
        recalling++;
        expect(hit.item.content.startsWith(`${RECALL_HEADING}\n`)).toBe(true);
        expect(hit.item.content).toContain(entry.id);
        expect(hit.item.provenance).toMatchObject({ source: 'recalled_memory', verified: false });
        expect(hit.item.class).toBe('project_memory');
      }
    }
    expect(recalling).toBeGreaterThanOrEqual(3);
    // Each recalled copy is addressed to its own agent only.
    for (const i of h.engine.items().filter((x) => x.id.startsWith('recall:'))) expect(i.id).toBe(`recall:${i.audience}:${entry.id}`);
  });

  it('[recall-roles] the recalled copies are persisted in the catalog items table', async () => {
    const { host: h, call, playUntil, catalogPath } = open();
    await playUntil(() => firstFinding(h) !== undefined);
    const entry = await promoteAndVerify(h, call);
    await playUntil(() => recallRows(catalogPath).length >= 2);
    for (const r of recallRows(catalogPath)) {
      expect(r.id).toMatch(new RegExp(`^recall:[\\w.-]+:${entry.id}$`));
      expect(r.removed).toBe(0);
      expect(r.content.startsWith(`${RECALL_HEADING}\n`)).toBe(true);
    }
  });

  it('[recall-scoped] an unverified candidate is never recalled', async () => {
    const { host: h, call, play, playUntil, catalogPath } = open();
    await playUntil(() => firstFinding(h) !== undefined);
    await call('promoteToMemory', { itemId: firstFinding(h)!.id });
    await play(120);
    for (const agentId of h.runs.current!.runtime.agentIds()) expect(recalledIn(h, agentId), agentId).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  it('promoting an item whose text quotes a secret is refused with the reason, and memory and the item are unchanged', async () => {
    const { host: h, call, playUntil } = open();
    // The demo's middleware test fails with output that quotes a bearer token (a made-up JWT).
    const quotesToken = () => h.engine.items().find((i) => i.kind === 'failure' && /"token":"eyJ/.test(i.content));
    await playUntil(() => quotesToken() !== undefined);
    const item = quotesToken()!;
    const before = JSON.stringify(h.engine.item(item.id));
    await expect(call('promoteToMemory', { itemId: item.id })).rejects.toThrow(/secret field \(token\)/);
    expect((await call<{ entries: MemoryEntryDto[] }>('listMemory', {})).entries).toEqual([]);
    expect(JSON.stringify(h.engine.item(item.id))).toBe(before);
    // The next item promotes as before: the refusal left nothing half-done.
    await playUntil(() => firstFinding(h) !== undefined);
    await call('promoteToMemory', { itemId: firstFinding(h)!.id });
    expect((await call<{ entries: MemoryEntryDto[] }>('listMemory', {})).entries).toHaveLength(1);
  });

  it('[recall-roles] with HostOptions.memory false nobody gets recall', async () => {
    const { host: h, call, play, playUntil, catalogPath } = open({ memory: false });
    await playUntil(() => firstFinding(h) !== undefined);
    await promoteAndVerify(h, call);
    await play(120);
    for (const agentId of h.runs.current!.runtime.agentIds()) {
      expect(recalledIn(h, agentId), agentId).toEqual([]);
      if (h.engine.currentGeneration(agentId) > 0) expect(h.engine.lastPrompt(agentId)).not.toContain(RECALL_HEADING);
    }
    expect(h.engine.items().filter((i) => i.provenance.source === 'recalled_memory' || i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  it('[erasure] purgeMemory with the confirmation removes the recalled copies from the engine pool and the catalog items table', async () => {
    const { host: h, call, play, playUntil, catalogPath } = open();
    await playUntil(() => firstFinding(h) !== undefined);
    const entry = await promoteAndVerify(h, call);
    await playUntil(() => recallRows(catalogPath).length >= 2);
    const copies = h.engine.items().filter((i) => i.id.startsWith('recall:')).length;
    expect(copies).toBe(recallRows(catalogPath).length);

    // Without the confirmation words nothing happens.
    const conn = h.connect(() => {});
    expect(await conn.call('purgeMemory', { confirm: 'yes' })).toMatchObject({ ok: false });
    expect(recallRows(catalogPath)).toHaveLength(copies);

    const report = await call<{ deleted: number; recalledCopiesDeleted: number }>('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(report).toMatchObject({ deleted: 1, recalledCopiesDeleted: copies });
    expect(h.engine.items().filter((i) => i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
    expect(h.memory.list()).toEqual([]);
    expect(entry.id).toMatch(/^mem_/);

    // Later builds do not bring it back.
    await play(10);
    expect(h.engine.items().filter((i) => i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  // Host.memoryChanged says "after a purge, no agent keeps recalled copies of purged entries", and
  // [erasure] says a purge deletes the recalled copies. The purge calls setRecall(agent, []),
  // which (by [recall-replace]) leaves an emitted entry in the current generation's L2, so every
  // later build of that generation would keep sending the purged text to the provider.
  it('[erasure] after a purge, the next prompt of an agent that had the entry no longer carries its text', async () => {
    const { host: h, call, playUntil } = open();
    await playUntil(() => firstFinding(h) !== undefined);
    const entry = await promoteAndVerify(h, call);
    await playUntil(() => h.engine.currentGeneration('primary') > 0 && (h.engine.lastPrompt('primary') ?? '').includes(entry.id));
    const turns = h.runs.current!.runtime.turns('primary');
    await call('purgeMemory', { confirm: PURGE_CONFIRMATION });
    await playUntil(() => h.runs.current!.runtime.turns('primary') > turns);
    expect(h.engine.lastPrompt('primary')).not.toContain(entry.id);
  });
});
