import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { MEMORY_GUARD_TRIGGERS } from '../../engine/node/catalog/memoryGuard';
import type { MemoryProposal, MemoryRecord } from '../../engine/memory/MemoryRecord';

/**
 * Helpers for the project-memory integration tests. They reach the catalog file the way an old
 * writer or an inspector would: a raw better-sqlite3 connection, or the file's bytes.
 */

/** A memory row by column, as raw SQL writes it. */
export interface MemoryRow {
  id: unknown;
  partition: unknown;
  state: unknown;
  revision: unknown;
  payload: unknown;
  updated_at: unknown;
}

export const INSERT_MEMORY = 'INSERT INTO memory (id, partition, state, revision, payload, updated_at) VALUES (@id, @partition, @state, @revision, @payload, @updated_at)';
export const UPDATE_MEMORY = 'UPDATE memory SET partition = @partition, state = @state, revision = @revision, payload = @payload, updated_at = @updated_at WHERE id = @where';

/** The row a well-behaved writer stores for `record`. */
export function rowOf(record: MemoryRecord | Record<string, unknown>, payload: unknown = JSON.stringify(record)): MemoryRow {
  const r = record as Record<string, unknown>;
  return { id: r.id, partition: r.partition, state: r.state, revision: r.revision, payload, updated_at: r.updatedAt ?? 1 };
}

/** The whole memory table as one string (`SELECT * FROM memory ORDER BY id`): equal means byte-for-byte the same. */
export function memoryTable(db: Database.Database): string {
  return JSON.stringify(db.prepare('SELECT * FROM memory ORDER BY id').all());
}

/** Names of the guard triggers present on the memory table, sorted. */
export function guardTriggers(db: Database.Database): string[] {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'memory' ORDER BY name").all() as { name: string }[];
  return names.map((n) => n.name).filter((n) => (MEMORY_GUARD_TRIGGERS as readonly string[]).includes(n));
}

/** Open `path` raw, run `fn`, close. */
export function withRaw<T>(path: string, fn: (db: Database.Database) => T, options?: Database.Options): T {
  const db = new Database(path, options);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Whether `marker` occurs in the catalog file and in its -wal (absent counts as not holding it). */
export function bytesHold(catalogPath: string, marker: string): { main: boolean; wal: boolean; walBytes: number } {
  const needle = Buffer.from(marker, 'utf8');
  const wal = `${catalogPath}-wal`;
  const walBytes = existsSync(wal) ? readFileSync(wal) : Buffer.alloc(0);
  return { main: readFileSync(catalogPath).includes(needle), wal: walBytes.includes(needle), walBytes: walBytes.length };
}

/** A proposal whose body carries `marker`, distinct per `n`. */
export function markedProposal(marker: string, n: number): MemoryProposal {
  return {
    kind: 'finding',
    title: `Observation ${n}`,
    body: `The parser keeps ${marker} in its cache (${n}).`,
    evidence: { paths: ['src/parser.ts'], commands: [], hashes: {}, commit: null },
    provenance: { source: 'worker_finding', agentId: 'worker-1', taskId: 'task-1', itemId: null, observedAt: 1_767_225_600_000, confidence: 0.8 },
  };
}

/** A legacy (version-1) row as the old Strata stored it. */
export interface LegacyRow {
  id: string;
  workspace: string;
  payload: string | null;
}

/** Write a version-1 catalog: `memory(id, workspace, payload)` and nothing of the new schema. */
export function writeLegacyCatalog(path: string, rows: readonly LegacyRow[]): void {
  withRaw(path, (db) => {
    db.exec('CREATE TABLE memory(id TEXT, workspace TEXT, payload TEXT)');
    const insert = db.prepare('INSERT INTO memory (id, workspace, payload) VALUES (@id, @workspace, @payload)');
    db.transaction(() => rows.forEach((r) => insert.run(r)))();
  });
}
