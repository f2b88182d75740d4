import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, MemoryEntryDto } from '../../../engine/contract';
import { PURGE_CONFIRMATION } from '../../../engine/contract';
import { Host, type HostOptions } from '../../../engine/host';
import { loadDemoScenario } from '../../../engine/host/demoScenario';
import { RECALL_HEADING } from '../../../engine/memory/recall/renderRecalled';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { quarterTokenizer } from '../../support/engineFixtures';
import { demoDir, tempDir } from '../../support/tempDir';

const scenario = loadDemoScenario(demoDir);
const RECALLING = new Set(['primary', 'worker', 'debug', 'integration']);
/** The architect's finding of step 3 (played by the fourth tick). */
const FINDING = 'finding:4';

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
  return { host: h, scheduler, call, catalogPath: options.catalogPath };
}

/** Promote the architect's finding to project memory through the contract, then verify it. */
async function promoteAndVerify(call: ReturnType<typeof open>['call']): Promise<MemoryEntryDto> {
  const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId: FINDING });
  expect(entry).toMatchObject({ state: 'candidate', verified: false, revision: 1, provenance: { itemId: FINDING } });
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
    const { host: h, scheduler, call } = open();
    scheduler.tick(4);
    expect(h.engine.item(FINDING).provenance.agentId).toBe('architect-1');
    const entry = await promoteAndVerify(call);

    scheduler.tick(1); // step 4: architect-1 builds (architect with the default scope recalls)
    scheduler.tick(1); // step 5: primary builds
    for (const agentId of ['architect-1', 'primary']) {
      const g = h.engine.generations(agentId).at(-1);
      const hit = g?.included.find((e) => e.item.id === `recall:${agentId}:${entry.id}`);
      expect(hit, `${agentId} generation ${g?.number}`).toBeDefined();
      expect(hit?.item.content.startsWith(`${RECALL_HEADING}\n`)).toBe(true);
      expect(hit?.item.content).toContain(entry.id);
      expect(hit?.item.provenance).toMatchObject({ source: 'recalled_memory', verified: false });
      expect(hit?.item.class).toBe('project_memory');
      expect(h.engine.lastPrompt(agentId)).toContain(RECALL_HEADING);
    }

    // Play the rest of the scenario: every recalling agent that builds gets it; probes and reviewers never.
    scheduler.tick(scenario.steps.length - 6);
    for (const a of scenario.agents) {
      const got = recalledIn(h, a.agentId);
      const built = h.engine.currentGeneration(a.agentId) > 0;
      if (a.role === 'probe' || a.role === 'reviewer') {
        expect(built, `${a.agentId} built`).toBe(true);
        expect(got, a.agentId).toEqual([]);
        expect(h.engine.items().filter((i) => i.id.startsWith(`recall:${a.agentId}:`)), a.agentId).toEqual([]);
        expect(h.engine.lastPrompt(a.agentId)).not.toContain(RECALL_HEADING);
      } else if (built && (RECALLING.has(a.role) || a.role === 'architect' || a.role === 'test')) {
        expect(got.map((x) => x.item.id), a.agentId).toContain(`recall:${a.agentId}:${entry.id}`);
      }
    }
    // Each recalled copy is addressed to its own agent only.
    for (const i of h.engine.items().filter((x) => x.id.startsWith('recall:'))) expect(i.id).toBe(`recall:${i.audience}:${entry.id}`);
    for (const a of scenario.agents) for (const x of recalledIn(h, a.agentId)) expect(x.item.audience).toBe(a.agentId);
  });

  it('[recall-roles] the recalled copies are persisted in the catalog items table', async () => {
    const { scheduler, call, catalogPath } = open();
    scheduler.tick(4);
    const entry = await promoteAndVerify(call);
    scheduler.tick(2);
    const rows = recallRows(catalogPath);
    expect(rows.map((r) => r.id)).toEqual([`recall:architect-1:${entry.id}`, `recall:primary:${entry.id}`]);
    for (const r of rows) {
      expect(r.removed).toBe(0);
      expect(r.content.startsWith(`${RECALL_HEADING}\n`)).toBe(true);
    }
  });

  it('[recall-scoped] an unverified candidate is never recalled', async () => {
    const { host: h, scheduler, call, catalogPath } = open();
    scheduler.tick(4);
    await call('promoteToMemory', { itemId: FINDING });
    scheduler.tick(scenario.steps.length - 4);
    for (const a of scenario.agents) expect(recalledIn(h, a.agentId), a.agentId).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  it('[recall-roles] with HostOptions.memory false nobody gets recall', async () => {
    const { host: h, scheduler, call, catalogPath } = open({ memory: false });
    scheduler.tick(4);
    await promoteAndVerify(call);
    scheduler.tick(scenario.steps.length - 4);
    for (const a of scenario.agents) {
      expect(h.engine.currentGeneration(a.agentId), `${a.agentId} built`).toBeGreaterThan(0);
      expect(recalledIn(h, a.agentId), a.agentId).toEqual([]);
      expect(h.engine.lastPrompt(a.agentId)).not.toContain(RECALL_HEADING);
    }
    expect(h.engine.items().filter((i) => i.provenance.source === 'recalled_memory' || i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  it('[erasure] purgeMemory with the confirmation removes the recalled copies from the engine pool and the catalog items table', async () => {
    const { host: h, scheduler, call, catalogPath } = open();
    scheduler.tick(4);
    const entry = await promoteAndVerify(call);
    scheduler.tick(2);
    expect(h.engine.items().filter((i) => i.id.startsWith('recall:')).map((i) => i.id).sort()).toEqual([`recall:architect-1:${entry.id}`, `recall:primary:${entry.id}`]);
    expect(recallRows(catalogPath)).toHaveLength(2);

    // Without the confirmation words nothing happens.
    const conn = h.connect(() => {});
    expect(await conn.call('purgeMemory', { confirm: 'yes' })).toMatchObject({ ok: false });
    expect(recallRows(catalogPath)).toHaveLength(2);

    const report = await call<{ deleted: number; recalledCopiesDeleted: number }>('purgeMemory', { confirm: PURGE_CONFIRMATION });
    expect(report).toMatchObject({ deleted: 1, recalledCopiesDeleted: 2 });
    expect(h.engine.items().filter((i) => i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
    expect(h.memory.list()).toEqual([]);

    // Later builds do not bring it back.
    scheduler.tick(3);
    expect(h.engine.items().filter((i) => i.id.startsWith('recall:'))).toEqual([]);
    expect(recallRows(catalogPath)).toEqual([]);
  });

  // Host.memoryChanged says "after a purge, no agent keeps recalled copies of purged entries", and
  // [erasure] says a purge deletes the recalled copies. The purge calls setRecall(agent, []),
  // which (by [recall-replace]) leaves an emitted entry in the current generation's L2, so every
  // later build of that generation keeps sending the purged text to the provider.
  it('[erasure] after a purge, the next prompt of an agent that had the entry no longer carries its text', async () => {
    const { host: h, scheduler, call } = open();
    scheduler.tick(4);
    const entry = await promoteAndVerify(call);
    scheduler.tick(2); // primary (step 5) now has the entry in its current generation
    expect(h.engine.lastPrompt('primary')).toContain(entry.id);
    await call('purgeMemory', { confirm: PURGE_CONFIRMATION });
    scheduler.tick(1); // step 6: primary builds again
    expect(h.engine.lastPrompt('primary')).not.toContain(entry.id);
  });
});
