import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { memoryConnection } from '../../../engine/node/catalog/memoryAccess';
import { createItem } from '../../../engine/items/createItem';
import type { MemoryRecord } from '../../../engine/memory/MemoryRecord';
import { MemoryStore, PURGED_TEXT, RESIDUAL_EXPOSURE, SCRUB_MIN_CHARS } from '../../../engine/node/memoryStore/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
import { dumpCatalog } from '../../support/catalogDump';
import { bytesHold, markedProposal } from '../../support/memoryCatalog';
import { tempDir } from '../../support/tempDir';

const MARKER = 'ZEBRA-PAYLOAD-7781';
const PARTITION = 'ws_00000000000000ee';

/** A recalled copy of `record` in the items pool, as the engine stores it for a worker. */
const recalledCopy = (record: MemoryRecord, agentId = 'worker-1') =>
  createItem({
    id: `recall:${agentId}:${record.id}`,
    kind: 'note',
    class: 'project_memory',
    title: `Recalled ${record.id}`,
    content: `Untrusted historical project observation; verify before use.\n> ${record.body}`,
    source: 'recalled_memory',
    agentId,
    taskId: 'task-1',
    at: 1,
  });

describe('[erasure] purge on a real catalog file', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let catalog: Catalog;
  let store: MemoryStore;
  let clock: ReturnType<typeof manualClock>;
  /** The items table as it is on disk. */
  const itemRows = () => dumpCatalog(path).items as { id: string; content: string; content_hash: string; removed: number }[];

  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    catalog = Catalog.open(path);
    clock = manualClock(1_767_225_600_000);
    store = MemoryStore.open(catalog, { partition: PARTITION, clock });
  });
  afterEach(() => {
    catalog.close();
    tmp.remove();
  });

  /** Propose an entry whose body carries `marker`. */
  const proposeMarked = (marker: string, n: number): MemoryRecord => {
    clock.advance(1);
    return store.propose(markedProposal(marker, n));
  };

  it('[erasure] secure_delete is on for the catalog connection from Catalog.open', () => {
    const other = Catalog.open(join(tmp.dir, 'plain.sqlite'));
    try {
      expect(memoryConnection(other).pragma('secure_delete', { simple: true })).toBe(1);
    } finally {
      other.close();
    }
    expect(memoryConnection(catalog).pragma('secure_delete', { simple: true })).toBe(1);
  });

  it('[erasure] purge removes the entries and their recalled copies from catalog.sqlite and catalog.sqlite-wal', () => {
    const entries = [0, 1, 2, 3].map((n) => proposeMarked(MARKER, n));
    store.verify(entries[0]!.id, 1);
    store.verify(entries[1]!.id, 1);
    store.retire(entries[2]!.id, 1);
    catalog.putItem(recalledCopy(store.get(entries[0]!.id)!), 1);
    catalog.putItem(recalledCopy(store.get(entries[1]!.id)!, 'worker-2'), 2);
    // An item that is not a recalled copy stays, whatever its id looks like.
    catalog.putItem(createItem({ id: 'note-1', kind: 'note', class: 'finding', content: 'unrelated', source: 'worker_finding', agentId: 'worker-1', taskId: 't', at: 1 }), 3);

    const before = bytesHold(path, MARKER);
    expect(before.main || before.wal).toBe(true);
    const backup = join(tmp.dir, 'backup-before-purge.sqlite');
    copyFileSync(path, backup);
    if (before.wal) copyFileSync(`${path}-wal`, `${backup}-wal`);

    const report = store.purge();
    expect(report).toMatchObject({ deleted: 4, recalledCopiesDeleted: 2, partitions: [PARTITION], otherPartitions: [], tracesHolding: 0, vacuumed: true, walTruncated: true });
    expect(report.residual).toContain('Deleted 4 entries from table memory (partition ws_00000000000000ee) and 2 recalled copies from table items');
    expect(report.residual).toContain('The removed text is no longer in catalog.sqlite, catalog.sqlite-wal or catalog.sqlite-shm.');
    expect(RESIDUAL_EXPOSURE).toContain('cannot reach copies made before');
    expect(store.list()).toEqual([]);
    expect(itemRows().map((i) => i.id)).toEqual(['note-1']);

    const after = bytesHold(path, MARKER);
    expect(after).toEqual({ main: false, wal: false, walBytes: 0 });
    expect(catalog.integrityCheck()).toBe('ok');

    // The residual the statement names, shown: a copy made before the purge still holds the text.
    const inBackup = bytesHold(backup, MARKER);
    expect(inBackup.main || inBackup.wal).toBe(true);
    console.log(
      [
        `[erasure] purge: deleted ${report.deleted}, recalled copies ${report.recalledCopiesDeleted}, vacuumed ${report.vacuumed}, WAL truncated ${report.walTruncated}`,
        `[erasure] marker ${MARKER}: before purge main=${before.main} wal=${before.wal}; after purge main=${after.main} wal=${after.wal} (wal ${after.walBytes} bytes); in a backup copied before the purge: yes`,
        `[erasure] residual statement: ${report.residual}`,
        '[erasure] residual cases that remain possible:',
        ...residualCases(report.residual).map((c) => `  - ${c}`),
      ].join('\n'),
    );
  });

  it('[erasure] purge(["retired"]) deletes only the retired entries, and only their text leaves the file', () => {
    const keep = proposeMarked('KEEP-CANDIDATE-4410', 0);
    const keepVerified = proposeMarked('KEEP-VERIFIED-4411', 1);
    const gone = proposeMarked('GONE-RETIRED-4412', 2);
    store.verify(keepVerified.id, 1);
    store.retire(gone.id, 1);
    catalog.putItem(recalledCopy(store.get(keepVerified.id)!), 1);

    const report = store.purge(['retired']);
    expect(report).toMatchObject({ deleted: 1, recalledCopiesDeleted: 0, vacuumed: true, walTruncated: true });
    expect(store.list().map((r) => r.id).sort()).toEqual([keep.id, keepVerified.id].sort());
    expect(store.get(gone.id)).toBeUndefined();
    expect(itemRows().map((i) => i.id)).toEqual([`recall:worker-1:${keepVerified.id}`]);
    expect(bytesHold(path, 'GONE-RETIRED-4412')).toMatchObject({ main: false, wal: false });
    expect(bytesHold(path, 'KEEP-CANDIDATE-4410').main).toBe(true);
    expect(bytesHold(path, 'KEEP-VERIFIED-4411').main).toBe(true);
  });

  it('[erasure] when a reader holds the WAL, purge reports it and its statement does not claim the text left the -wal', () => {
    proposeMarked(MARKER, 0);
    // Shorter than the catalog's 5 s busy timeout, so the checkpoint gives up quickly; the outcome is the same.
    memoryConnection(catalog).pragma('busy_timeout = 200');
    const reader = new Database(path, { readonly: true });
    let report: ReturnType<MemoryStore['purge']>;
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM memory').get();
      report = store.purge();
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
    const left = bytesHold(path, MARKER);
    expect(report.deleted).toBe(1);
    expect(report.walTruncated).toBe(false);
    expect(left.wal).toBe(true);
    // The text is still in catalog.sqlite-wal, so the statement handed to the UI must not say it is gone.
    expect(report.residual).not.toMatch(/no longer in catalog\.sqlite or catalog\.sqlite-wal/);
  });

  it('[erasure] a soft delete keeps the text until purge(["deleted"]) removes it', () => {
    const r = proposeMarked(MARKER, 0);
    store.delete(r.id, 1);
    memoryConnection(catalog).pragma('wal_checkpoint(TRUNCATE)');
    expect(bytesHold(path, MARKER).main).toBe(true);
    expect(store.purge(['deleted']).deleted).toBe(1);
    expect(bytesHold(path, MARKER)).toMatchObject({ main: false, wal: false });
  });

  it('[erasure] secure_delete: a plain DELETE plus a checkpoint, without VACUUM, leaves no marker in the main file', () => {
    const r = proposeMarked(MARKER, 0);
    const keep = proposeMarked('STILL-HERE-5520', 1);
    const db = memoryConnection(catalog);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(bytesHold(path, MARKER)).toMatchObject({ main: true, wal: false });
    const pages = db.pragma('page_count', { simple: true });

    // The guard removes only rows marked deleted ([memory-guard-transitions]).
    store.delete(r.id, 1);
    db.prepare('DELETE FROM memory WHERE id = ?').run(r.id);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(db.pragma('page_count', { simple: true })).toBe(pages); // no VACUUM ran
    expect(bytesHold(path, MARKER)).toEqual({ main: false, wal: false, walBytes: 0 });
    expect(bytesHold(path, 'STILL-HERE-5520').main).toBe(true);
    expect(store.get(keep.id)).toBeDefined();
  });

  it('[erasure] contrast: a connection without secure_delete (an older writer) leaves the text in freed cells, which purge then removes', () => {
    const r = proposeMarked(MARKER, 0);
    proposeMarked('OTHER-ENTRY-6630', 1);
    store.delete(r.id, 1);
    memoryConnection(catalog).pragma('wal_checkpoint(TRUNCATE)');
    const old = new Database(path);
    try {
      old.pragma('secure_delete = OFF');
      old.prepare('DELETE FROM memory WHERE id = ?').run(r.id);
    } finally {
      old.close();
    }
    memoryConnection(catalog).pragma('wal_checkpoint(TRUNCATE)');
    const left = bytesHold(path, MARKER);
    expect(store.get(r.id)).toBeUndefined();
    console.log(`[erasure] residual case shown: after a DELETE by a connection without secure_delete, the marker is ${left.main ? 'still' : 'not'} in catalog.sqlite`);
    expect(left.main).toBe(true);

    expect(store.purge(['retired'])).toMatchObject({ deleted: 0, vacuumed: true, walTruncated: true });
    expect(bytesHold(path, MARKER)).toEqual({ main: false, wal: false, walBytes: 0 });
  });

  it('[erasure-turn] a purge removes every recalled copy whose entry no longer exists, also one that landed after an earlier purge (marked removed)', () => {
    const gone = proposeMarked(MARKER, 0);
    store.verify(gone.id, 1);
    const copy = recalledCopy(store.get(gone.id)!);
    expect(store.purge().deleted).toBe(1);
    // A turn's held writes land after that purge: the copy again, then its removal mark.
    catalog.putItem(copy, 7);
    catalog.markItemRemoved(copy.id);
    const kept = proposeMarked('KEEP-VERIFIED-7712', 1);
    store.verify(kept.id, 1);
    catalog.putItem(recalledCopy(store.get(kept.id)!), 8);

    const report = store.purge(['retired']);
    expect(report).toMatchObject({ deleted: 0, recalledCopiesDeleted: 1 });
    expect(itemRows().map((i) => i.id)).toEqual([`recall:worker-1:${kept.id}`]);
    expect(bytesHold(path, MARKER)).toEqual({ main: false, wal: false, walBytes: 0 });
  });

  it('[erasure] purge writes each entry as deleted at its next revision, then deletes it, so a guard that refuses deleting a live row lets it through', () => {
    const a = proposeMarked(MARKER, 0);
    const b = proposeMarked(MARKER, 1);
    store.verify(b.id, 1);
    const c = proposeMarked(MARKER, 2);
    store.delete(c.id, 1);
    const db = memoryConnection(catalog);
    db.exec(`CREATE TEMP TABLE seen (id TEXT, state TEXT, revision INTEGER, payload_state TEXT, payload_revision INTEGER);
      CREATE TEMP TRIGGER seen_update AFTER UPDATE ON main.memory BEGIN
        INSERT INTO seen VALUES (NEW.id, NEW.state, NEW.revision, json_extract(NEW.payload, '$.state'), json_extract(NEW.payload, '$.revision'));
      END;
      CREATE TEMP TRIGGER refuse_live_delete BEFORE DELETE ON main.memory WHEN OLD.state IS NOT 'deleted' BEGIN
        SELECT RAISE(ABORT, 'only a deleted entry may be removed');
      END;`);
    const report = store.purge();
    expect(report.deleted).toBe(3);
    const seen = db.prepare('SELECT * FROM seen ORDER BY id').all();
    expect(seen).toEqual(
      [
        { id: a.id, state: 'deleted', revision: 2, payload_state: 'deleted', payload_revision: 2 },
        { id: b.id, state: 'deleted', revision: 3, payload_state: 'deleted', payload_revision: 3 },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(store.list()).toEqual([]);
  });

  it('[erasure-everywhere] purge replaces the entry\'s text in items (removed rows too), agents.task, events and generation_entries, and names the traces that still hold it', () => {
    const text = `Release checklist: ${MARKER} must be rotated before tagging.`;
    const r = store.propose({ ...markedProposal(MARKER, 0), body: text });
    const source = createItem({ id: 'finding-1', kind: 'finding', class: 'finding', title: 'Finding', content: text, source: 'worker_finding', agentId: 'worker-1', taskId: 't', at: 1 });
    catalog.putItem(source, 1);
    catalog.putItem(createItem({ id: 'tool-old', kind: 'note', class: 'ephemeral', title: 'Old read', content: `before\n${text}\nafter`, source: 'repository_source', agentId: 'worker-1', taskId: 't', at: 1 }), 2);
    catalog.markItemRemoved('tool-old');
    catalog.putAgent({ agentId: 'worker-1', parent: null, role: 'worker', task: `Follow up: ${text}`, model: 'm', status: 'waiting', generation: 1, tokens: 0, budget: 1000, usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 }, revision: 1, updatedAt: '2026-12-01T00:00:00.000Z' });
    catalog.appendLog({ at: '2026-12-01T00:00:00.000Z', level: 'info', agentId: 'worker-1', message: `Stated: ${text}` });
    catalog.insertTrace(
      { id: 'tr_0000000000000001', name: 'session.json', format: 'claude-code-jsonl', sourcePath: '/tmp/session.json', sha256: '0'.repeat(64), importedAt: '2026-12-01T00:00:00.000Z', steps: 1, toolCalls: 0, eventCount: 1 },
      [{ kind: 'message', role: 'assistant', text } as never],
    );

    const report = store.purge();
    expect(report).toMatchObject({ deleted: 1, tracesHolding: 1 });
    expect(report.scrubbed).toEqual([
      { table: 'items', rows: 2 },
      { table: 'agents', rows: 1 },
      { table: 'events', rows: 1 },
      { table: 'generation_entries', rows: 0 },
    ]);
    expect(report.residual).toContain('items (2 rows), agents (1 row), events (1 row)');
    expect(report.residual).toContain('1 imported trace (table traces) still hold the text');
    expect(report.residual).not.toContain('is no longer in catalog.sqlite');
    const items = itemRows();
    expect(items.map((i) => [i.id, i.content, i.removed])).toEqual([
      ['finding-1', PURGED_TEXT, 0],
      ['tool-old', `before\n${PURGED_TEXT}\nafter`, 1],
    ]);
    expect(catalog.getAgent('worker-1')!.task).toBe(`Follow up: ${PURGED_TEXT}`);
    expect(catalog.recentLog(5).map((e) => e.message)).toEqual([`Stated: ${PURGED_TEXT}`]);
    expect(store.get(r.id)).toBeUndefined();
    // Only the imported trace still held it, and the report said so: emptied by hand, nothing is left.
    memoryConnection(catalog).prepare("UPDATE traces SET events = '[]'").run();
    memoryConnection(catalog).exec('VACUUM');
    memoryConnection(catalog).pragma('wal_checkpoint(TRUNCATE)');
    expect(bytesHold(path, MARKER)).toEqual({ main: false, wal: false, walBytes: 0 });
  });

  it('[erasure-everywhere] a text shorter than SCRUB_MIN_CHARS is not looked for elsewhere, and the report says so', () => {
    const short = store.propose({ ...markedProposal(MARKER, 0), body: 'Use tabs.' });
    catalog.appendLog({ at: '2026-12-01T00:00:00.000Z', level: 'info', agentId: null, message: 'Use tabs. Always.' });
    const report = store.purge();
    expect(report.deleted).toBe(1);
    expect(store.get(short.id)).toBeUndefined();
    expect(catalog.recentLog(5).map((e) => e.message)).toEqual(['Use tabs. Always.']);
    expect(report.residual).toContain(`1 entry had text shorter than ${SCRUB_MIN_CHARS} characters, which was not looked for in other tables`);
  });
});

/** The cases RESIDUAL_EXPOSURE says a purge cannot reach, one per line. */
function residualCases(statement: string): string[] {
  const list = /cannot reach copies made before: ([^.]+)\./.exec(statement)?.[1];
  const cases = list ? list.split(/,\s*(?:or\s+)?/).map((s) => s.trim()) : [statement];
  const complete = /([^.]*only complete removal)\./.exec(statement)?.[1]?.trim();
  return complete ? [...cases, `(${complete})`] : cases;
}

