import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/catalog/Catalog';
import { memoryConnection } from '../../../engine/catalog/memoryAccess';
import { createItem } from '../../../engine/items/createItem';
import type { MemoryRecord } from '../../../engine/memory/MemoryRecord';
import { MemoryStore, RESIDUAL_EXPOSURE } from '../../../engine/memory/store/MemoryStore';
import { manualClock } from '../../../engine/ports/Clock';
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
    expect(report).toEqual({ deleted: 4, recalledCopiesDeleted: 2, vacuumed: true, walTruncated: true, residual: RESIDUAL_EXPOSURE });
    expect(store.list()).toEqual([]);
    expect(catalog.readTable('items').map((i) => i.id)).toEqual(['note-1']);

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
    expect(catalog.readTable('items').map((i) => i.id)).toEqual([`recall:worker-1:${keepVerified.id}`]);
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
});

/** The cases RESIDUAL_EXPOSURE says a purge cannot reach, one per line. */
function residualCases(statement: string): string[] {
  const list = /cannot reach copies made before: ([^.]+)\./.exec(statement)?.[1];
  const cases = list ? list.split(/,\s*(?:or\s+)?/).map((s) => s.trim()) : [statement];
  const complete = /([^.]*only complete removal)\./.exec(statement)?.[1]?.trim();
  return complete ? [...cases, `(${complete})`] : cases;
}

