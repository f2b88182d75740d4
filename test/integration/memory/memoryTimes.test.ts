import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryGuardSql, dropMemoryGuardSql } from '../../../engine/node/catalog/memoryGuard';
import { Host } from '../../../engine/host';
import { partitionId } from '../../../engine/memory/partitionId';
import { RECALL_HEADING } from '../../../engine/memory/recall/renderRecalled';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { quarterTokenizer } from '../../support/engineFixtures';
import { INSERT_MEMORY, rowOf, withRaw, writeLegacyCatalog } from '../../support/memoryCatalog';
import { demoDir, tempDir } from '../../support/tempDir';
import { validRecord } from '../../unit/engine/memory/proposals';

// Issue 20, item 6: an observedAt of 1e20 passed the intake (legacy import, raw SQL); once
// verified, every recalling agent failed with "Invalid time value" before any provider call.

const NOW = Date.parse('2026-11-29T12:00:00Z');
let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(() => {
  host?.close();
  tmp?.remove();
  host = undefined;
  tmp = undefined;
});

function openDemo(): { host: Host; catalogPath: string } {
  tmp = tempDir('strata-memtimes-');
  const catalogPath = join(tmp.dir, 'catalog.sqlite');
  host = Host.open({
    catalogPath,
    workspaceName: 'demo',
    version: '0.0.0-test',
    demoDir,
    demoTickMs: 100,
    clock: manualClock(NOW),
    scheduler: manualScheduler(),
    tokenizer: quarterTokenizer,
  });
  return { host, catalogPath };
}

/** A verified entry of the demo partition about nothing in particular (current in any view). */
function verifiedEntry(id: string, observedAt: number) {
  return {
    ...validRecord(),
    id,
    partition: partitionId('demo'),
    state: 'verified' as const,
    revision: 2,
    verified: true,
    title: `Entry ${id}`,
    body: 'The build runs electron-vite; recall this to every agent.',
    evidence: { paths: [], commands: [], hashes: {}, commit: null },
    provenance: { ...validRecord().provenance, observedAt },
  };
}

describe('[memory-intake] time fields out of range (issue 20, item 6)', () => {
  it('[legacy-import] a legacy row observed at 1e20 is dropped at import with a reason naming the field', () => {
    const { host: h } = openDemo();
    const legacyPath = join(tmp!.dir, 'legacy.sqlite');
    writeLegacyCatalog(legacyPath, [
      { id: 'far', workspace: 'demo', payload: JSON.stringify({ schemaVersion: 1, text: 'From far ahead.', createdAt: 1e20 }) },
      { id: 'ok', workspace: 'demo', payload: JSON.stringify({ schemaVersion: 1, text: 'Ordinary.', createdAt: Date.parse('2025-05-01T00:00:00Z') }) },
    ]);
    const report = h.memory.importLegacy(legacyPath);
    expect(report).toEqual({ imported: 1, dropped: 1, reasons: { 'provenance.observedAt must be a time from 2000-01-01 to 2100-01-01': 1 } });
    expect(h.memory.list().map((r) => r.body)).toEqual(['Ordinary.']);
  });

  it('[recall-render] a verified entry observed at 1e20, written around the intake, fails no run: it is left out of recall and the log says why', async () => {
    const { host: h, catalogPath } = openDemo();
    const bad = verifiedEntry('mem_farfuture0001', 1e20);
    const good = verifiedEntry('mem_ordinary00001', Date.parse('2026-11-01T00:00:00Z'));
    // As the legacy import does: lift the guard inside one transaction, insert, reinstall it.
    withRaw(catalogPath, (db) =>
      db.transaction(() => {
        db.exec(dropMemoryGuardSql);
        for (const r of [bad, good]) db.prepare(INSERT_MEMORY).run(rowOf(r));
        db.exec(memoryGuardSql);
      })(),
    );
    const turns = () => h.runs.current!.runtime.agentIds().reduce((n, id) => n + h.runs.current!.runtime.turns(id), 0);
    for (let i = 0; i < 40; i++) await h.stepDemo();
    expect(turns()).toBeGreaterThan(0);
    const log = h.catalog.recentLog(500);
    expect(log.filter((e) => /Invalid time value/.test(e.message))).toEqual([]);
    expect(log.filter((e) => e.level === 'error')).toEqual([]);
    const prompts = h.runs.current!.runtime.agentIds().map((id) => h.engine.lastPrompt(id) ?? '');
    expect(prompts.some((p) => p.includes(good.id) && p.includes(RECALL_HEADING))).toBe(true);
    expect(prompts.some((p) => p.includes(bad.id))).toBe(false);
    const why = log.filter((e) => e.message.includes(bad.id));
    expect(why).toHaveLength(1);
    expect(why[0]).toMatchObject({ level: 'warn' });
    expect(why[0]!.message).toContain('provenance.observedAt must be a time from 2000-01-01 to 2100-01-01');
  }, 120_000);
});
