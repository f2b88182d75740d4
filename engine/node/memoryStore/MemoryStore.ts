import type Database from 'better-sqlite3';
import type { Catalog } from '../catalog/Catalog';
import { importLegacyCatalog, type LegacyImportReport, registerLegacyMemoryIntake } from '../catalog/legacyImport';
import { memoryConnection } from '../catalog/memoryAccess';
import { memoryGuardSql } from '../catalog/memoryGuard';
import { statementCache } from '../catalog/statementCache';
import type { Clock } from '../../ports/Clock';
import { intakeProposal, intakeRecord, intakeTypedText } from '../../memory/intake';
import { MEMORY_ID_PATTERN, MEMORY_SCHEMA_VERSION, type MemoryRecord, type MemoryState, memoryStates } from '../../memory/MemoryRecord';
import { newMemoryId } from '../../memory/partitionId';
import { legacyToRow } from './legacyRecord';
import { MemoryError } from './MemoryError';
import { memoryMigrations } from './memoryMigrations';
import { PURGED_TEXT, type PurgeReport, residualFor, SCRUB_MIN_CHARS } from './purgeReport';

export { PURGED_TEXT, type PurgeReport, RESIDUAL_EXPOSURE, SCRUB_MIN_CHARS } from './purgeReport';

interface Row {
  id: string;
  revision: number;
  payload: string;
}

/** The body of a stored payload, read without the intake (a purge removes rows the intake refuses too). */
function bodyOf(payload: string): string | undefined {
  try {
    const body = (JSON.parse(payload) as { body?: unknown }).body;
    return typeof body === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Project memory: the only reader and writer of the catalog's `memory` table
 * (`[memory-only-module]`). Every write goes through the intake and is a revision
 * check-and-set (`[memory-cas]`); rows are schema-2 JSON in one opaque `ws_` partition.
 */
export class MemoryStore {
  private readonly db: ReturnType<typeof memoryConnection>;
  private readonly sql: (source: string) => Database.Statement;
  /** The last `list` result per state set, valid while no connection has written the catalog since. */
  private listed: { key: string; version: number; writes: number; records: MemoryRecord[] } | undefined;
  private writes = 0;
  /** Parsed and checked records by id and revision: a prompt's recall reads the same rows again. */
  private readonly parsed = new Map<string, { revision: number; record: MemoryRecord | undefined }>();

  private constructor(
    private readonly catalog: Catalog,
    readonly partition: string,
    private readonly clock: Clock,
    private readonly onUnreadable: ((message: string) => void) | undefined,
  ) {
    this.db = memoryConnection(catalog);
    this.sql = statementCache(this.db);
  }

  /**
   * Open the store on a catalog: run the memory migrations, install the guard again, and as a
   * best effort rewrite free pages (VACUUM) and truncate the WAL (spec "WAL and free pages").
   * `onUnreadable` hears, once per row revision, why a row written around the intake (raw SQL,
   * an old tool) is left out of every list and recall; the reason never repeats the content.
   */
  static open(catalog: Catalog, o: { partition: string; clock: Clock; adopt?: readonly string[] | 'all'; onUnreadable?: (message: string) => void }): MemoryStore {
    const store = new MemoryStore(catalog, o.partition, o.clock, o.onUnreadable);
    const db = store.db;
    db.pragma('secure_delete = ON');
    const row = db.prepare("SELECT value FROM meta WHERE key = 'memory.schema'").get() as { value: string } | undefined;
    const from = row ? Number(row.value) : 0;
    db.transaction(() => {
      for (const m of memoryMigrations.filter((x) => x.version > from)) db.exec(m.sql);
      const latest = memoryMigrations.reduce((v, m) => Math.max(v, m.version), 0);
      db.prepare("INSERT INTO meta(key, value) VALUES ('memory.schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(latest));
      db.exec(memoryGuardSql);
    })();
    if (o.adopt && o.adopt.length > 0) store.adopted = store.adopt(o.adopt);
    store.compact();
    registerLegacyMemoryIntake((payload, legacy) => legacyToRow(payload, legacy, o.clock.now()));
    return store;
  }

  /** Entries moved into this partition from other keys of the same workspace when the store opened (`[memory-partition]`). */
  adopted = 0;

  /**
   * Re-key the entries of `from` (or of every other partition) into this one, each at its next
   * revision through the intake, in one transaction; ids, states and text are kept. An entry the
   * intake refuses stays where it is, and a purge names its partition. Returns how many moved.
   */
  private adopt(from: readonly string[] | 'all'): number {
    const rows = (
      from === 'all'
        ? this.sql('SELECT id, revision, payload FROM memory WHERE partition <> ?').all(this.partition)
        : this.sql(`SELECT id, revision, payload FROM memory WHERE partition IN (${from.map(() => '?').join(', ')}) AND partition <> ?`).all(...from, this.partition)
    ) as Row[];
    let moved = 0;
    this.db.transaction(() => {
      const update = this.sql('UPDATE memory SET partition = ?, revision = ?, payload = ? WHERE id = ? AND revision = ?');
      for (const row of rows) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(row.payload);
        } catch {
          continue;
        }
        const checked = intakeRecord({ ...(parsed as object), partition: this.partition, revision: row.revision + 1 });
        if (!checked.ok) continue;
        moved += update.run(this.partition, checked.record.revision, JSON.stringify(checked.record), row.id, row.revision).changes;
      }
    })();
    if (moved > 0) this.writes++;
    return moved;
  }

  /** Import a version-1 catalog's memory through the intake (see `importLegacyCatalog`). */
  importLegacy(legacyPath: string): LegacyImportReport {
    this.writes++;
    return importLegacyCatalog(this.catalog, legacyPath);
  }

  /** Propose a new entry: it passes the intake and lands as an unverified candidate at revision 1. */
  propose(proposal: unknown, seed?: string): MemoryRecord {
    const checked = intakeProposal(proposal);
    if (!checked.ok) throw new MemoryError('invalid', `Refused by the memory intake: ${checked.reason}`);
    const now = this.clock.now();
    const p = checked.proposal;
    const record: MemoryRecord = {
      schemaVersion: MEMORY_SCHEMA_VERSION,
      id: newMemoryId(seed ?? `${this.partition}:${p.provenance.agentId}:${p.provenance.itemId ?? ''}:${p.title}:${now}`),
      partition: this.partition,
      state: 'candidate',
      revision: 1,
      kind: p.kind,
      title: p.title,
      body: p.body,
      evidence: p.evidence,
      provenance: p.provenance,
      verified: false,
      createdAt: now,
      updatedAt: now,
    };
    if (this.get(record.id)) throw new MemoryError('conflict', `A memory entry ${record.id} already exists.`);
    return this.write(record, undefined);
  }

  get(id: string): MemoryRecord | undefined {
    const row = this.sql('SELECT id, revision, payload FROM memory WHERE id = ? AND partition = ?').get(id, this.partition) as Row | undefined;
    return row ? this.read(row) : undefined;
  }

  /**
   * Entries of this partition, newest first, optionally of some states only. A row that does not
   * pass the intake (written around this module by raw SQL) is never returned.
   */
  list(states: readonly MemoryState[] = memoryStates): MemoryRecord[] {
    // Every prompt recalls, so the verified list is read again and again: reuse it while neither
    // this store nor another connection (PRAGMA data_version) has written since.
    const key = states.join(',');
    const version = Number(this.db.pragma('data_version', { simple: true }));
    const l = this.listed;
    if (l && l.key === key && l.version === version && l.writes === this.writes) return [...l.records];
    const rows = this.sql(`SELECT id, revision, payload FROM memory WHERE partition = ? AND state IN (${states.map(() => '?').join(', ')}) ORDER BY updated_at DESC, id`)
      .all(this.partition, ...states) as Row[];
    const out: MemoryRecord[] = [];
    for (const row of rows) {
      const r = this.read(row);
      if (r) out.push(r);
    }
    this.listed = { key, version, writes: this.writes, records: out };
    return [...out];
  }

  /** Parse and check a row once per revision; undefined when it fails the intake. */
  private read(row: Row): MemoryRecord | undefined {
    const cached = this.parsed.get(row.id);
    if (cached && cached.revision === row.revision) return cached.record;
    let record: MemoryRecord | undefined;
    let reason: string;
    try {
      const checked = intakeRecord(JSON.parse(row.payload));
      record = checked.ok && checked.record.partition === this.partition ? Object.freeze(checked.record) : undefined;
      reason = checked.ok ? 'its payload names another workspace' : checked.reason;
    } catch {
      record = undefined;
      reason = 'its payload is not JSON';
    }
    this.parsed.set(row.id, { revision: row.revision, record });
    if (!record) {
      const name = MEMORY_ID_PATTERN.test(row.id) ? `Memory entry ${row.id}` : 'A memory row with a malformed id';
      this.onUnreadable?.(`${name} (revision ${row.revision}) is left out of memory lists and recall: ${reason}.`);
    }
    return record;
  }

  /** Mark an entry verified (the one way an entry becomes verified: `[unverified-stays-unverified]`). */
  verify(id: string, expectedRevision: number): MemoryRecord {
    return this.transition(id, expectedRevision, ['candidate', 'stale'], { state: 'verified', verified: true });
  }

  /** Undo a verify (`[memory-unverify]`): a verified entry goes back to candidate, text unchanged, and is no longer recalled. */
  unverify(id: string, expectedRevision: number): MemoryRecord {
    return this.transition(id, expectedRevision, ['verified'], { state: 'candidate', verified: false });
  }

  /**
   * Edit an entry's title and body (`[memory-edit]`): through the intake at the next revision, and
   * the entry becomes a candidate (a verified text that changed needs a new verify). Kind,
   * evidence and provenance stay; an edit that changes nothing is refused.
   */
  edit(id: string, expectedRevision: number, text: { title?: string | undefined; body?: string | undefined }): MemoryRecord {
    const current = this.get(id);
    if (!current) throw new MemoryError('not_found', `No memory entry ${id}.`);
    const typed = intakeTypedText({ title: text.title ?? current.title, text: text.body ?? current.body }, 'body');
    if (!typed.ok) throw new MemoryError('invalid', `Refused by the memory intake: ${typed.reason}`);
    const title = typed.title ?? '';
    const body = typed.text;
    if (title === '') throw new MemoryError('invalid', 'Refused by the memory intake: title is empty');
    if (current.revision === expectedRevision && title === current.title && body === current.body) {
      throw new MemoryError('invalid', `Memory entry ${id}: the edit changes neither the title nor the body.`);
    }
    return this.transition(id, expectedRevision, ['candidate', 'verified', 'stale'], { state: 'candidate', verified: false, title, body });
  }

  retire(id: string, expectedRevision: number): MemoryRecord {
    return this.transition(id, expectedRevision, ['candidate', 'verified', 'stale'], { state: 'retired', verified: false });
  }

  /** Stale for everyone (e.g. command evidence older than 30 days); it needs a new verify to recall again. */
  markStale(id: string, expectedRevision: number): MemoryRecord {
    return this.transition(id, expectedRevision, ['verified', 'candidate'], { state: 'stale', verified: false });
  }

  /** Soft delete: the row stays, as `deleted`, until a purge removes it. */
  delete(id: string, expectedRevision: number): MemoryRecord {
    return this.transition(id, expectedRevision, ['candidate', 'verified', 'stale', 'retired'], { state: 'deleted', verified: false });
  }

  /**
   * Delete entries (all, or of the given states) of this partition, every recalled copy whose
   * entry no longer exists, and every other copy of their text the catalog holds; then VACUUM and
   * truncate the WAL, and say what was done, where, and what remains possible. Each row is first
   * marked `deleted` at its next revision (the guard's update path), then deleted.
   */
  purge(states: readonly MemoryState[] = memoryStates): PurgeReport {
    const marks = states.map(() => '?').join(', ');
    const rows = this.sql(`SELECT id, revision, state, payload FROM memory WHERE partition = ? AND state IN (${marks})`).all(this.partition, ...states) as (Row & { state: string })[];
    const texts = rows.map((r) => bodyOf(r.payload)).filter((t): t is string => t !== undefined);
    const searchable = texts.filter((t) => t.length >= SCRUB_MIN_CHARS);
    const otherPartitions = (
      this.sql(`SELECT partition, count(*) AS n FROM memory WHERE partition <> ? AND state IN (${marks}) GROUP BY partition ORDER BY partition`).all(this.partition, ...states) as {
        partition: string;
        n: number;
      }[]
    ).map((r) => ({ partition: r.partition, entries: r.n }));
    let recalled = 0;
    let scrubbed: PurgeReport['scrubbed'] = [];
    this.db.transaction(() => {
      // The guard removes only rows marked deleted: each is first marked deleted at its next
      // revision with a tombstone payload (no content, so no copy of it is written), then deleted.
      const tombstone = this.sql(
        `UPDATE memory SET state = 'deleted', revision = revision + 1, updated_at = ?,
           payload = json_object('schemaVersion', ${MEMORY_SCHEMA_VERSION}, 'id', id, 'partition', partition, 'state', 'deleted', 'revision', revision + 1, 'verified', json('false'))
         WHERE id = ? AND revision = ?`,
      );
      const del = this.sql("DELETE FROM memory WHERE id = ? AND state = 'deleted'");
      const now = this.clock.now();
      for (const r of rows) {
        if (r.state !== 'deleted' && tombstone.run(now, r.id, r.revision).changes !== 1) throw new MemoryError('conflict', `Memory entry ${r.id} changed during the purge; nothing was purged. Try again.`);
        del.run(r.id);
      }
      recalled = this.deleteOrphanCopies();
      scrubbed = this.catalog.scrubText(searchable, PURGED_TEXT);
    })();
    for (const r of rows) this.parsed.delete(r.id);
    this.writes++;
    for (const t of searchable) this.unswept.add(t);
    const { vacuumed, walTruncated } = this.compact(true);
    const report = {
      deleted: rows.length,
      recalledCopiesDeleted: recalled,
      partitions: [this.partition],
      otherPartitions,
      scrubbed,
      tracesHolding: this.catalog.tracesHolding(searchable),
      vacuumed,
      walTruncated,
    };
    return { ...report, residual: residualFor(report, texts.length - searchable.length) };
  }

  /**
   * Texts of purged entries that writes held since the purge may bring back (a turn that was in
   * flight, `[erasure-turn]`); `sweepPurged` removes them again and forgets them.
   */
  private readonly unswept = new Set<string>();

  /**
   * Apply the last purges once more, after writes that were held while they ran: delete every
   * recalled copy whose entry no longer exists and replace the purged texts again. Inside the
   * transaction that lands held writes, so the purge wins over them; with `last`, outside any
   * transaction once nothing held remains: the texts are then forgotten and the WAL truncated.
   * Returns the rows changed.
   */
  sweepPurged(o: { last?: boolean } = {}): number {
    const texts = [...this.unswept];
    const changed = this.db.transaction(() => this.deleteOrphanCopies() + this.catalog.scrubText(texts, PURGED_TEXT).reduce((n, s) => n + s.rows, 0))();
    if (o.last) {
      this.unswept.clear();
      this.compact(changed > 0);
    }
    return changed;
  }

  /** Forget the purged texts once no held write can bring them back (no turn was open). */
  forgetPurged(): void {
    this.unswept.clear();
  }

  /** Delete every recalled copy (removed rows included) whose memory entry no longer exists, in any partition. */
  private deleteOrphanCopies(): number {
    const exists = this.sql('SELECT 1 FROM memory WHERE id = ?');
    const orphans = this.catalog.recalledCopyIds().filter((id) => !exists.get(id.slice(id.lastIndexOf(':') + 1)));
    return this.catalog.deleteItems(orphans);
  }

  /**
   * VACUUM then `wal_checkpoint(TRUNCATE)`, best effort (another reader can hold the WAL). At
   * open, VACUUM runs only when the file has free pages: with secure_delete on there is nothing
   * else for it to rewrite, and rewriting a large catalog on every open would cost seconds.
   */
  private compact(always = false): { vacuumed: boolean; walTruncated: boolean } {
    let vacuumed = false;
    let walTruncated = false;
    try {
      const free = Number(this.db.pragma('freelist_count', { simple: true }));
      if (always || free > 0) this.db.exec('VACUUM');
      vacuumed = true;
    } catch {
      // Best effort: a long-running reader elsewhere can prevent it.
    }
    try {
      const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      walTruncated = !!r && r.busy === 0 && r.log === 0;
    } catch {
      walTruncated = false;
    }
    return { vacuumed, walTruncated };
  }

  private transition(id: string, expectedRevision: number, from: readonly MemoryState[], patch: Partial<MemoryRecord>): MemoryRecord {
    const current = this.get(id);
    if (!current) throw new MemoryError('not_found', `No memory entry ${id}.`);
    if (current.revision !== expectedRevision) {
      throw new MemoryError('conflict', `Memory entry ${id} is at revision ${current.revision}, not ${expectedRevision}; reload it and try again.`);
    }
    if (!from.includes(current.state)) throw new MemoryError('invalid', `Memory entry ${id} is ${current.state}; this change needs ${from.join(' or ')}.`);
    const next: MemoryRecord = { ...current, ...patch, revision: current.revision + 1, updatedAt: this.clock.now() };
    return this.write(next, expectedRevision);
  }

  /** Insert (expected undefined) or check-and-set update; every record passes the intake first. */
  private write(record: MemoryRecord, expectedRevision: number | undefined): MemoryRecord {
    this.writes++;
    const checked = intakeRecord(record);
    if (!checked.ok) throw new MemoryError('invalid', `Refused by the memory intake: ${checked.reason}`);
    // Store what the intake returns (normalized paths), as the legacy import does.
    record = checked.record;
    const payload = JSON.stringify(record);
    if (expectedRevision === undefined) {
      this.db
        .prepare('INSERT INTO memory (id, partition, state, revision, payload, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(record.id, record.partition, record.state, record.revision, payload, record.updatedAt);
      return record;
    }
    const changed = this.sql('UPDATE memory SET state = ?, revision = ?, payload = ?, updated_at = ? WHERE id = ? AND partition = ? AND revision = ?')
      .run(record.state, record.revision, payload, record.updatedAt, record.id, record.partition, expectedRevision).changes;
    if (changed !== 1) throw new MemoryError('conflict', `Memory entry ${record.id} changed underneath this write (expected revision ${expectedRevision}).`);
    return record;
  }

  /** The catalog this store writes to. */
  get catalogPath(): string {
    return this.catalog.path;
  }
}
