import { generationOverflow, generationTokens } from '../../generations/Generation';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AgentDto, LogEntry, LogLevel, TraceDto } from '../../contract';
import type { CompressedEntry, DroppedEntry, Generation, IncludedEntry } from '../../generations/Generation';
import type { ContextItem } from '../../items/ContextItem';
import { contentHash } from '../../text/hash';
import type { TraceEvent } from '../../traces/TraceEvent';
import { CatalogLock } from './CatalogLock';
import { statementCache } from './statementCache';
import { grantMemoryAccess } from './memoryAccess';
import { memoryGuardSql } from './memoryGuard';
import { latestSchemaVersion, migrations, type Migration } from './migrations';

/** How `Catalog.open` reaches SQLite. */
export interface CatalogOpenOptions {
  /**
   * Absolute path of the `better_sqlite3.node` to load instead of the one in node_modules (built
   * for Node). The Electron main process passes an Electron build here (`STRATA_SQLITE_BINDING`,
   * set by `npm start`), because one process can only load a native module built for its own ABI.
   */
  nativeBinding?: string | undefined;
}

/** An agent as stored: the contract DTO without values derived from it. */
export type AgentRecord = Omit<AgentDto, 'cacheHitRate' | 'boundary' | 'lastError'>;

/**
 * Why the catalog refused: `unavailable` (it cannot be opened or migrated: a missing SQLite module,
 * an unreadable file, a schema newer than this Strata), `locked` (another writer holds it,
 * `CatalogLock`), `refused` (a generic accessor was asked for the memory table or a table it does not have).
 */
export type CatalogErrorCode = 'unavailable' | 'locked' | 'refused';

/** A failure to open, migrate or use a catalog; the message names the file and what to do. */
export class CatalogError extends Error {
  constructor(
    message: string,
    readonly code: CatalogErrorCode = 'unavailable',
  ) {
    super(message);
    this.name = 'CatalogError';
  }

  /** The catalog is held by another writer (`CatalogLock`), so a caller can say who. */
  get locked(): boolean {
    return this.code === 'locked';
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

interface ItemRow {
  id: string;
  kind: string;
  class: string;
  title: string;
  content: string;
  content_hash: string;
  provenance: string;
  pinned: number;
  mandatory: number;
  phase: string | null;
  signature: string | null;
}

interface EntryRow {
  role: 'included' | 'dropped' | 'compressed';
  item_id: string;
  layer: string | null;
  tokens: number;
  score: number | null;
  tier: number | null;
  text: string;
  from_tokens: number | null;
  to_tokens: number | null;
}

/** An item as the catalog holds it now (its latest value); undefined when it has no row. */
const toItem = (r: ItemRow | undefined): ContextItem | undefined =>
  r &&
  Object.freeze({
    id: r.id,
    kind: r.kind as ContextItem['kind'],
    class: r.class as ContextItem['class'],
    title: r.title,
    content: r.content,
    contentHash: r.content_hash,
    provenance: JSON.parse(r.provenance) as ContextItem['provenance'],
    pinned: r.pinned === 1,
    mandatory: r.mandatory === 1,
    ...(r.phase === null ? {} : { phase: r.phase }),
    ...(r.signature === null ? {} : { signature: r.signature }),
  });

/** The entries of a generation as stored when it was built (`storedEntries`). */
export interface StoredEntries {
  included: IncludedEntry[];
  dropped: DroppedEntry[];
  compressed: CompressedEntry[];
}

interface TraceRow {
  id: string;
  name: string;
  format: string;
  source_path: string;
  sha256: string;
  imported_at: string;
  steps: number;
  tool_calls: number;
  event_count: number;
}

/** The columns of a trace without its event stream, which only a replay reads. */
const TRACE_COLUMNS = 'id, name, format, source_path, sha256, imported_at, steps, tool_calls, event_count';

const toTraceDto = (r: TraceRow): TraceDto => ({
  id: r.id,
  name: r.name,
  format: r.format as TraceDto['format'],
  sourcePath: r.source_path,
  sha256: r.sha256,
  importedAt: r.imported_at,
  steps: r.steps,
  toolCalls: r.tool_calls,
  eventCount: r.event_count,
});

const toLogEntry = (r: EventRow): LogEntry => ({
  seq: r.seq,
  at: r.at,
  level: r.level as LogLevel,
  agentId: r.agent_id,
  message: r.message,
});

/**
 * Load the SQLite module at `binding` through better-sqlite3 (an in-memory database, touching no
 * file), or throw a CatalogError naming the path. A module built for another runtime keeps Node's
 * own words ("NODE_MODULE_VERSION …"), which the Electron shell recognises.
 */
function loadNativeBinding(binding: string): void {
  if (!existsSync(resolve(binding))) {
    throw new CatalogError(`Cannot load the SQLite module at ${binding}: there is no such file.`);
  }
  try {
    new Database(':memory:', { nativeBinding: binding }).close();
  } catch (err) {
    throw new CatalogError(`Cannot load the SQLite module at ${binding}: ${(err as Error).message}`);
  }
}

/**
 * The workspace catalog: one SQLite file in WAL mode, migrated in a transaction when opened.
 * It is the single store of a workspace's agents and event log; writers go through its methods.
 */
/** Catalog meta key: the log's highest `seq` when the agents were last cleared; older error lines belong to agents gone. */
const ERROR_FLOOR_KEY = 'agents.errorFloorSeq';

export class Catalog {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly lock: CatalogLock | undefined;
  /** A prepared statement, compiled once per catalog. */
  private readonly sql: (source: string) => Database.Statement;
  /** `lastErrorOf`'s answers by agent (null: the agent has none); cleared with the agents. */
  readonly #lastErrors = new Map<string, LogEntry | null>();

  private constructor(path: string, db: Database.Database, lock: CatalogLock | undefined) {
    this.path = path;
    this.db = db;
    this.lock = lock;
    this.sql = statementCache(db);
  }

  /**
   * Open (creating if needed) and migrate the catalog at `path`: one writer per file (a second
   * is refused, see `CatalogLock`), WAL, `secure_delete` on, migrations in one transaction, then
   * the memory guard installed before anything else can write. With `options.nativeBinding` that
   * module is loaded first; one missing or built for another runtime is refused (a CatalogError
   * naming it) before any folder, lock or file is created.
   */
  static open(path: string, options: CatalogOpenOptions = {}): Catalog {
    const { nativeBinding } = options;
    if (nativeBinding !== undefined) loadNativeBinding(nativeBinding);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    let lock: CatalogLock | undefined;
    try {
      lock = path === ':memory:' ? undefined : CatalogLock.acquire(path);
    } catch (err) {
      throw new CatalogError((err as Error).message, 'locked');
    }
    let db: Database.Database;
    try {
      db = new Database(path, nativeBinding === undefined ? {} : { nativeBinding });
    } catch (err) {
      lock?.release();
      throw new CatalogError(`Cannot open the catalog at ${path}: ${(err as Error).message}`);
    }
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      // Freed cells are overwritten, not left on the free list (spec "WAL and free pages").
      db.pragma('secure_delete = ON');
      migrate(db, path, migrations);
      db.exec(memoryGuardSql);
    } catch (err) {
      db.close();
      lock?.release();
      throw err instanceof CatalogError ? err : new CatalogError(`Cannot prepare the catalog at ${path}: ${(err as Error).message}`);
    }
    const catalog = new Catalog(path, db, lock);
    grantMemoryAccess(catalog, db);
    return catalog;
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
    const row = this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Parents before children (by depth), then by id: the order of the agent tree. */
  listAgents(): AgentRecord[] {
    const rows = this.sql(
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
    const row = this.sql('SELECT * FROM agents WHERE agent_id = ?').get(agentId) as AgentRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  childrenOf(agentId: string): string[] {
    return (this.sql('SELECT agent_id FROM agents WHERE parent = ? ORDER BY agent_id').all(agentId) as { agent_id: string }[]).map(
      (r) => r.agent_id,
    );
  }

  countAgents(): number {
    return (this.sql('SELECT count(*) AS n FROM agents').get() as { n: number }).n;
  }

  /**
   * Remove every agent (a run starting over); children first, so the parent reference never
   * dangles. Their stored generations go too: a run that starts over reuses agent ids and
   * generation numbers, and its generations must not be read back with the old run's entries.
   */
  clearAgents(): void {
    this.transaction(() => {
      this.sql('UPDATE agents SET parent = NULL').run();
      this.sql('DELETE FROM agents').run();
      this.sql('DELETE FROM generations').run();
      // The agents that come next (a new run, the same ids again) start with no error of their own.
      const top = this.sql('SELECT MAX(seq) AS seq FROM events').get() as { seq: number | null };
      this.setMeta(ERROR_FLOOR_KEY, String(top.seq ?? 0));
    });
    this.#lastErrors.clear();
  }

  /**
   * The newest error-level log line of an agent since the agents were last cleared (`[agent-last-error]`):
   * read from the log table once per agent, then kept up to date by `appendLog`. Undefined when there is none.
   */
  lastErrorOf(agentId: string): LogEntry | undefined {
    if (this.#lastErrors.has(agentId)) return this.#lastErrors.get(agentId) ?? undefined;
    const floor = Number(this.getMeta(ERROR_FLOOR_KEY) ?? '0') || 0;
    const row = this.sql("SELECT * FROM events WHERE agent_id = ? AND seq > ? AND level = 'error' ORDER BY seq DESC LIMIT 1").get(agentId, floor) as EventRow | undefined;
    const entry = row ? toLogEntry(row) : null;
    this.#lastErrors.set(agentId, entry);
    return entry ?? undefined;
  }

  /** Insert or replace an agent; the caller supplies the next revision. */
  putAgent(a: AgentRecord): void {
    this.sql(
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
    const info = this.sql('INSERT INTO events (at, level, agent_id, message) VALUES (?, ?, ?, ?)')
      .run(entry.at, entry.level, entry.agentId, entry.message);
    const written = { seq: Number(info.lastInsertRowid), ...entry };
    if (written.level === 'error' && written.agentId !== null) this.#lastErrors.set(written.agentId, written);
    return written;
  }

  /** The newest `limit` log lines (of one agent when `agentId` is given), oldest first. */
  recentLog(limit: number, agentId?: string): LogEntry[] {
    const rows = (
      agentId === undefined
        ? this.sql('SELECT * FROM events ORDER BY seq DESC LIMIT ?').all(limit)
        : this.sql('SELECT * FROM events WHERE agent_id = ? ORDER BY seq DESC LIMIT ?').all(agentId, limit)
    ) as EventRow[];
    return rows.reverse().map(toLogEntry);
  }

  /** Store or replace an item of the engine's pool (by id; `seq` is its arrival order). */
  putItem(item: ContextItem, seq: number): void {
    this.sql(
        `INSERT INTO items (id, seq, kind, class, title, content, content_hash, provenance, pinned, mandatory, phase, signature, removed)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
         ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, class = excluded.class, title = excluded.title, content = excluded.content,
           content_hash = excluded.content_hash, provenance = excluded.provenance, pinned = excluded.pinned, mandatory = excluded.mandatory,
           phase = excluded.phase, signature = excluded.signature, removed = 0`,
      )
      .run(item.id, seq, item.kind, item.class, item.title, item.content, item.contentHash, JSON.stringify(item.provenance), item.pinned ? 1 : 0, item.mandatory ? 1 : 0, item.phase ?? null, item.signature ?? null);
  }

  /** Removed items keep their row (generations refer to them), marked removed. */
  markItemRemoved(id: string): void {
    this.sql('UPDATE items SET removed = 1 WHERE id = ?').run(id);
  }

  countItems(): number {
    return (this.sql('SELECT count(*) AS n FROM items WHERE removed = 0').get() as { n: number }).n;
  }

  /**
   * Store a generation snapshot: its summary, and the entries not stored yet (a build inside a
   * generation only appends, so earlier rows never change). Dropped entries are stored up to
   * `droppedLimit`; `dropped_total` keeps the count.
   */
  saveGeneration(g: Generation, droppedLimit: number): void {
    this.sql(
        `INSERT INTO generations (agent_id, number, phase, strategy, budget, tokens, overflow, boundary_kind, boundary_reason, builds, prefix_hash,
           started_at, layer_tokens, indicators, dropped_total)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(agent_id, number) DO UPDATE SET tokens = excluded.tokens, overflow = excluded.overflow, builds = excluded.builds,
           prefix_hash = excluded.prefix_hash, layer_tokens = excluded.layer_tokens, indicators = excluded.indicators, dropped_total = excluded.dropped_total`,
      )
      .run(g.agentId, g.number, g.phase, g.strategy, g.budget, generationTokens(g), generationOverflow(g), g.boundary.kind, g.boundary.reason, g.builds, g.prefixHash, g.startedAt,
        JSON.stringify(g.layerTokens), JSON.stringify(g.indicators), g.droppedTotal);
    const stored = (role: string) =>
      (this.sql('SELECT count(*) AS n FROM generation_entries WHERE agent_id = ? AND number = ? AND role = ?').get(g.agentId, g.number, role) as { n: number }).n;
    const insert = this.sql(
      `INSERT OR IGNORE INTO generation_entries (agent_id, number, role, position, item_id, layer, tokens, score, tier, text, from_tokens, to_tokens)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    g.included.slice(stored('included')).forEach((e, k, rest) => {
      const position = g.included.length - rest.length + k;
      insert.run(g.agentId, g.number, 'included', position, e.item.id, e.layer, e.tokens, e.score, e.tier, e.why, null, null);
    });
    const droppedStored = stored('dropped');
    if (droppedStored < Math.min(g.droppedTotal, droppedLimit)) {
      g.dropped.slice(droppedStored, droppedLimit).forEach((d, k) => {
        insert.run(g.agentId, g.number, 'dropped', droppedStored + k, d.item.id, null, d.tokens, d.score ?? null, null, d.reason, null, null);
      });
    }
    g.compressed.slice(stored('compressed')).forEach((c, k, rest) => {
      const position = g.compressed.length - rest.length + k;
      insert.run(g.agentId, g.number, 'compressed', position, c.itemId, null, c.to, null, null, c.method, c.from, c.to);
    });
  }

  /**
   * What `saveGeneration` stored of a generation: its included and compressed entries and its first
   * `droppedLimit` dropped ones, in order, each with the item as the catalog holds it now (an item
   * the catalog lost is named by id). Undefined when the generation was never stored. An entry that
   * was compressed to fit shows the item's full content; `compressed` gives its sizes.
   */
  storedEntries(agentId: string, number: number, droppedLimit: number): StoredEntries | undefined {
    if (!this.sql('SELECT 1 FROM generations WHERE agent_id = ? AND number = ?').get(agentId, number)) return undefined;
    const rows = this.sql(
      `SELECT role, item_id, layer, tokens, score, tier, text, from_tokens, to_tokens FROM generation_entries
       WHERE agent_id = ? AND number = ? AND (role != 'dropped' OR position < ?) ORDER BY role, position`,
    ).all(agentId, number, droppedLimit) as EntryRow[];
    const itemStmt = this.sql('SELECT id, kind, class, title, content, content_hash, provenance, pinned, mandatory, phase, signature FROM items WHERE id = ?');
    const items = new Map<string, ContextItem>();
    const itemOf = (id: string): ContextItem => {
      let item = items.get(id);
      if (!item) {
        item = toItem(itemStmt.get(id) as ItemRow | undefined) ?? missingItem(id);
        items.set(id, item);
      }
      return item;
    };
    const out: StoredEntries = { included: [], dropped: [], compressed: [] };
    for (const r of rows) {
      if (r.role === 'included') out.included.push({ item: itemOf(r.item_id), layer: r.layer as IncludedEntry['layer'], tokens: r.tokens, score: r.score ?? 0, tier: (r.tier ?? 4) as IncludedEntry['tier'], why: r.text });
      else if (r.role === 'dropped') out.dropped.push({ item: itemOf(r.item_id), tokens: r.tokens, reason: r.text, ...(r.score === null ? {} : { score: r.score }) });
      else out.compressed.push({ itemId: r.item_id, from: r.from_tokens ?? r.tokens, to: r.to_tokens ?? r.tokens, method: r.text as CompressedEntry['method'] });
    }
    return out;
  }

  /** Stored generations of an agent (summaries), oldest first. */
  storedGenerations(agentId: string): { number: number; tokens: number; boundaryReason: string; droppedTotal: number }[] {
    return (
      this.sql('SELECT number, tokens, boundary_reason, dropped_total FROM generations WHERE agent_id = ? ORDER BY number').all(agentId) as {
        number: number;
        tokens: number;
        boundary_reason: string;
        dropped_total: number;
      }[]
    ).map((r) => ({ number: r.number, tokens: r.tokens, boundaryReason: r.boundary_reason, droppedTotal: r.dropped_total }));
  }

  /** Store an imported trace with its normalized events (`[trace-catalog]`); the caller checked its sha256 is new. */
  insertTrace(trace: TraceDto, events: readonly TraceEvent[]): void {
    this.sql(
      `INSERT INTO traces (id, name, format, source_path, sha256, imported_at, steps, tool_calls, event_count, events)
       VALUES (@id, @name, @format, @sourcePath, @sha256, @importedAt, @steps, @toolCalls, @eventCount, @events)`,
    ).run({ ...trace, events: JSON.stringify(events) });
  }

  traceBySha256(sha256: string): TraceDto | undefined {
    const row = this.sql(`SELECT ${TRACE_COLUMNS} FROM traces WHERE sha256 = ?`).get(sha256) as TraceRow | undefined;
    return row ? toTraceDto(row) : undefined;
  }

  getTrace(id: string): TraceDto | undefined {
    const row = this.sql(`SELECT ${TRACE_COLUMNS} FROM traces WHERE id = ?`).get(id) as TraceRow | undefined;
    return row ? toTraceDto(row) : undefined;
  }

  /** Every imported trace, newest first (events not read). */
  listTraces(): TraceDto[] {
    return (this.sql(`SELECT ${TRACE_COLUMNS} FROM traces ORDER BY imported_at DESC, rowid DESC`).all() as TraceRow[]).map(toTraceDto);
  }

  /** The normalized events of a stored trace, or undefined when there is none with that id. */
  traceEvents(id: string): TraceEvent[] | undefined {
    const row = this.sql('SELECT events FROM traces WHERE id = ?').get(id) as { events: string } | undefined;
    return row ? (JSON.parse(row.events) as TraceEvent[]) : undefined;
  }

  /** Delete an imported trace's row (`[trace-remove]`); false when there is none with that id. Saved comparisons are not touched. */
  deleteTrace(id: string): boolean {
    return this.sql('DELETE FROM traces WHERE id = ?').run(id).changes > 0;
  }

  /**
   * Save an ended comparison whole (`[trace-compare-history]`): `summary` is what the history
   * lists, `dto` what reopening it shows; `seq` orders the history and numbers the next comparison.
   */
  saveComparison(c: { id: string; seq: number; startedAt: number; summary: unknown; dto: unknown }): void {
    this.sql('INSERT OR REPLACE INTO comparisons (id, seq, started_at, summary, dto) VALUES (?, ?, ?, ?, ?)').run(c.id, c.seq, c.startedAt, JSON.stringify(c.summary), JSON.stringify(c.dto));
  }

  /** A saved comparison as it was saved, or undefined. */
  savedComparison(id: string): unknown {
    const row = this.sql('SELECT dto FROM comparisons WHERE id = ?').get(id) as { dto: string } | undefined;
    return row ? JSON.parse(row.dto) : undefined;
  }

  /** The saved comparisons' summaries, newest first (at most `limit`). */
  savedComparisons(limit: number): unknown[] {
    return (this.sql('SELECT summary FROM comparisons ORDER BY seq DESC LIMIT ?').all(limit) as { summary: string }[]).map((r) => JSON.parse(r.summary) as unknown);
  }

  /** The highest `seq` saved, 0 when none is. */
  lastComparisonSeq(): number {
    return (this.sql('SELECT max(seq) AS n FROM comparisons').get() as { n: number | null }).n ?? 0;
  }

  /**
   * Ids of the recalled copies of project memory in the items table (rows marked removed included):
   * items whose provenance says `recalled_memory`, id `recall:<agent>:<memory id>`.
   */
  recalledCopyIds(): string[] {
    const rows = this.sql("SELECT id FROM items WHERE id GLOB 'recall:*' AND json_extract(provenance, '$.source') = 'recalled_memory'").all() as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Delete item rows outright (a purge's recalled copies); returns how many were deleted. */
  deleteItems(ids: readonly string[]): number {
    const del = this.sql('DELETE FROM items WHERE id = ?');
    let n = 0;
    for (const id of ids) n += del.run(id).changes;
    return n;
  }

  /**
   * Replace every copy of each of `texts` the catalog holds outside the memory table with
   * `placeholder` (`[erasure-everywhere]`): item titles and content (rows marked removed included;
   * the content hash follows the new content), agent tasks, log lines and generation entries'
   * reasons. Returns the rows changed per table, every table named even at 0. Imported traces are
   * recordings the user brought in and are not rewritten; `tracesHolding` counts them.
   */
  scrubText(texts: readonly string[], placeholder: string): { table: ScrubbedTable; rows: number }[] {
    const changed = { items: new Set<string>(), agents: new Set<string>(), events: new Set<number>(), generation_entries: new Set<string>() };
    const swap = (value: string, text: string) => value.split(text).join(placeholder);
    for (const text of texts) {
      if (text === '') continue;
      const items = this.sql('SELECT id, title, content FROM items WHERE instr(content, @t) > 0 OR instr(title, @t) > 0').all({ t: text }) as { id: string; title: string; content: string }[];
      const putItem = this.sql('UPDATE items SET title = ?, content = ?, content_hash = ? WHERE id = ?');
      for (const r of items) {
        const content = swap(r.content, text);
        putItem.run(swap(r.title, text), content, contentHash(content), r.id);
        changed.items.add(r.id);
      }
      const agents = this.sql('SELECT agent_id, task FROM agents WHERE instr(task, ?) > 0').all(text) as { agent_id: string; task: string }[];
      for (const r of agents) {
        this.sql('UPDATE agents SET task = ? WHERE agent_id = ?').run(swap(r.task, text), r.agent_id);
        changed.agents.add(r.agent_id);
      }
      const events = this.sql('SELECT seq, message FROM events WHERE instr(message, ?) > 0').all(text) as { seq: number; message: string }[];
      for (const r of events) {
        this.sql('UPDATE events SET message = ? WHERE seq = ?').run(swap(r.message, text), r.seq);
        changed.events.add(r.seq);
      }
      const entries = this.sql('SELECT rowid AS k, text FROM generation_entries WHERE instr(text, ?) > 0').all(text) as { k: number; text: string }[];
      for (const r of entries) {
        this.sql('UPDATE generation_entries SET text = ? WHERE rowid = ?').run(swap(r.text, text), r.k);
        changed.generation_entries.add(String(r.k));
      }
    }
    return SCRUBBED_TABLES.map((table) => ({ table, rows: changed[table].size }));
  }

  /** Imported traces whose name, source path or stored events hold any of `texts` (as written or JSON-escaped). */
  tracesHolding(texts: readonly string[]): number {
    const ids = new Set<string>();
    const stmt = this.sql('SELECT id FROM traces WHERE instr(events, @t) > 0 OR instr(events, @j) > 0 OR instr(name, @t) > 0 OR instr(source_path, @t) > 0');
    for (const t of texts) {
      if (t === '') continue;
      for (const r of stmt.all({ t, j: JSON.stringify(t).slice(1, -1) }) as { id: string }[]) ids.add(r.id);
    }
    return ids.size;
  }

  /** SQLite's own consistency check of the whole file: 'ok' when sound. */
  integrityCheck(): string {
    return String(this.db.pragma('integrity_check', { simple: true }));
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}

/** The tables `scrubText` rewrites, in the order a purge report names them. */
const SCRUBBED_TABLES = ['items', 'agents', 'events', 'generation_entries'] as const;
export type ScrubbedTable = (typeof SCRUBBED_TABLES)[number];


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

/** Stands in for an item whose row the catalog no longer has (a purged recalled-memory copy). */
function missingItem(id: string): ContextItem {
  const item: ContextItem = {
    id,
    kind: 'note',
    class: 'ephemeral',
    title: id,
    content: `(item ${id} is no longer in the catalog)`,
    contentHash: '',
    provenance: { source: 'generated_summary', agentId: '', taskId: '', at: 0, confidence: 0, relevance: 0, durability: 'transient', verified: false, files: [], symbols: [] },
    pinned: false,
    mandatory: false,
  };
  return Object.freeze(item);
}
