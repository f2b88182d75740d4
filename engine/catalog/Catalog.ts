import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentDto, LogEntry, LogLevel } from '../contract';
import { latestSchemaVersion, migrations, type Migration } from './migrations';

/** An agent as stored: the contract DTO without values derived from it. */
export type AgentRecord = Omit<AgentDto, 'cacheHitRate'>;

/** A failure to open or migrate a catalog; the message names the file and what to do. */
export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

interface AgentRow {
  agent_id: string;
  parent: string | null;
  role: string;
  task: string;
  model: string;
  status: string;
  generation: number;
  tokens: number;
  budget: number;
  usage_input: number;
  usage_cache_read: number;
  usage_cache_write: number;
  usage_output: number;
  revision: number;
  updated_at: string;
}

interface EventRow {
  seq: number;
  at: string;
  level: string;
  agent_id: string | null;
  message: string;
}

const toRecord = (r: AgentRow): AgentRecord => ({
  agentId: r.agent_id,
  parent: r.parent,
  role: r.role as AgentRecord['role'],
  task: r.task,
  model: r.model,
  status: r.status as AgentRecord['status'],
  generation: r.generation,
  tokens: r.tokens,
  budget: r.budget,
  usage: { input: r.usage_input, cacheRead: r.usage_cache_read, cacheWrite: r.usage_cache_write, output: r.usage_output },
  revision: r.revision,
  updatedAt: r.updated_at,
});

const toLogEntry = (r: EventRow): LogEntry => ({
  seq: r.seq,
  at: r.at,
  level: r.level as LogLevel,
  agentId: r.agent_id,
  message: r.message,
});

/**
 * The workspace catalog: one SQLite file in WAL mode, migrated in a transaction when opened.
 * It is the single store of a workspace's agents and event log; writers go through its methods.
 */
export class Catalog {
  readonly path: string;
  private readonly db: Database.Database;

  private constructor(path: string, db: Database.Database) {
    this.path = path;
    this.db = db;
  }

  /** Open (creating if needed) and migrate the catalog at `path`. */
  static open(path: string): Catalog {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (err) {
      throw new CatalogError(`Cannot open the catalog at ${path}: ${(err as Error).message}`);
    }
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db, path, migrations);
    } catch (err) {
      db.close();
      throw err instanceof CatalogError ? err : new CatalogError(`Cannot prepare the catalog at ${path}: ${(err as Error).message}`);
    }
    return new Catalog(path, db);
  }

  /** Highest migration applied to this file. */
  schemaVersion(): number {
    return currentVersion(this.db);
  }

  journalMode(): string {
    return String(this.db.pragma('journal_mode', { simple: true }));
  }

  /** Run `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Parents before children (by depth), then by id: the order of the agent tree. */
  listAgents(): AgentRecord[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE tree(agent_id, depth) AS (
           SELECT agent_id, 0 FROM agents WHERE parent IS NULL
           UNION ALL
           SELECT a.agent_id, t.depth + 1 FROM agents a JOIN tree t ON a.parent = t.agent_id
         )
         SELECT a.* FROM agents a JOIN tree t USING (agent_id) ORDER BY t.depth, a.agent_id`,
      )
      .all() as AgentRow[];
    return rows.map(toRecord);
  }

  getAgent(agentId: string): AgentRecord | undefined {
    const row = this.db.prepare('SELECT * FROM agents WHERE agent_id = ?').get(agentId) as AgentRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  childrenOf(agentId: string): string[] {
    return (this.db.prepare('SELECT agent_id FROM agents WHERE parent = ? ORDER BY agent_id').all(agentId) as { agent_id: string }[]).map(
      (r) => r.agent_id,
    );
  }

  countAgents(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM agents').get() as { n: number }).n;
  }

  /** Insert or replace an agent; the caller supplies the next revision. */
  putAgent(a: AgentRecord): void {
    this.db
      .prepare(
        `INSERT INTO agents (agent_id, parent, role, task, model, status, generation, tokens, budget,
           usage_input, usage_cache_read, usage_cache_write, usage_output, revision, updated_at)
         VALUES (@agentId, @parent, @role, @task, @model, @status, @generation, @tokens, @budget,
           @input, @cacheRead, @cacheWrite, @output, @revision, @updatedAt)
         ON CONFLICT(agent_id) DO UPDATE SET parent = excluded.parent, role = excluded.role, task = excluded.task,
           model = excluded.model, status = excluded.status, generation = excluded.generation, tokens = excluded.tokens,
           budget = excluded.budget, usage_input = excluded.usage_input, usage_cache_read = excluded.usage_cache_read,
           usage_cache_write = excluded.usage_cache_write, usage_output = excluded.usage_output,
           revision = excluded.revision, updated_at = excluded.updated_at`,
      )
      .run({ ...a, ...a.usage });
  }

  appendLog(entry: Omit<LogEntry, 'seq'>): LogEntry {
    const info = this.db
      .prepare('INSERT INTO events (at, level, agent_id, message) VALUES (?, ?, ?, ?)')
      .run(entry.at, entry.level, entry.agentId, entry.message);
    return { seq: Number(info.lastInsertRowid), ...entry };
  }

  /** The newest `limit` log lines (of one agent when `agentId` is given), oldest first. */
  recentLog(limit: number, agentId?: string): LogEntry[] {
    const rows = (
      agentId === undefined
        ? this.db.prepare('SELECT * FROM events ORDER BY seq DESC LIMIT ?').all(limit)
        : this.db.prepare('SELECT * FROM events WHERE agent_id = ? ORDER BY seq DESC LIMIT ?').all(agentId, limit)
    ) as EventRow[];
    return rows.reverse().map(toLogEntry);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function currentVersion(db: Database.Database): number {
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/** Apply every migration newer than the file's version, all in one transaction. */
function migrate(db: Database.Database, path: string, all: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const from = currentVersion(db);
  if (from > latestSchemaVersion) {
    throw new CatalogError(
      `The catalog at ${path} has schema version ${from}, newer than this Strata (${latestSchemaVersion}). Update Strata; the file was not changed.`,
    );
  }
  const pending = [...all].sort((a, b) => a.version - b.version).filter((m) => m.version > from);
  if (pending.length === 0) return;
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    }
  })();
}
