/**
 * OpenCode's SQLite database (`~/.local/share/opencode/opencode.db`), read without changing it: its
 * sessions listed, and one session rendered as the document `opencode export <sessionID>` prints
 * (`{ info, messages: [{ info, parts }] }`, pretty-printed), which the pure `openCode` importer
 * reads. A Node adapter, like `readTraceFile`: the importers stay pure.
 *
 * Read-only for real: the database is opened with `{ readonly: true, fileMustExist: true }` and
 * only when its `-wal` file already exists (OpenCode has it open, or was not closed cleanly: the
 * newest rows may be in the WAL, and SQLite reads them). Without one, even a read-only connection
 * to a WAL-mode file would create `-wal` and `-shm` files beside it, so the file's bytes are read
 * instead and opened in memory (the in-memory copy's header is set to a rollback journal, which
 * SQLite needs to open a serialized WAL-mode database); nothing is written either way.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { TraceFileError } from '../../traces/TraceFileError';
import { MAX_TRACE_BYTES, readTraceFile } from './readTraceFile';

/** One session of an OpenCode database, as listed. */
export interface OpenCodeSessionSummary {
  id: string;
  title: string;
  directory: string;
  /** The session that spawned this one (a subagent's `task`), when there is one. */
  parentId?: string;
  createdAt: string;
  updatedAt: string;
  messages: number;
}

/** How the database is opened: the SQLite module to load (Electron's build), as for the catalog. */
export interface OpenCodeDatabaseOptions {
  nativeBinding?: string | undefined;
}

const SQLITE_HEADER = 'SQLite format 3\0';

/** True when `path` is a regular file that starts with SQLite's header (read: its first 16 bytes). */
export function isSqliteFile(path: string): boolean {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info?.isFile() || info.size < 100) return false;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

function open(path: string, options: OpenCodeDatabaseOptions): Database.Database {
  const binding = options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding };
  try {
    if (existsSync(`${path}-wal`)) return new Database(path, { readonly: true, fileMustExist: true, ...binding });
    if (statSync(path).size > MAX_TRACE_BYTES) {
      throw new TraceFileError('refused', `${path} is over ${MAX_TRACE_BYTES / 2 ** 20} MiB and has no -wal file to read it in place without creating one; open it with OpenCode running, or export the session (opencode export <id>) and import that file.`);
    }
    const bytes = Buffer.from(readTraceFile(path));
    // Bytes 18-19 are the file format's read/write versions: 2 means WAL, 1 a rollback journal.
    if (bytes[18] === 2 && bytes[19] === 2) bytes[18] = bytes[19] = 1;
    return new Database(bytes, { readonly: true, ...binding });
  } catch (err) {
    if (err instanceof TraceFileError) throw err;
    throw new TraceFileError('refused', `Cannot open ${path} as an OpenCode database: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function withDatabase<T>(path: string, options: OpenCodeDatabaseOptions, use: (db: Database.Database) => T): T {
  const db = open(path, options);
  try {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    if (!tables.has('session') || !tables.has('message') || !tables.has('part')) {
      throw new TraceFileError('refused', `${path} is a SQLite database but not OpenCode's (it has no session, message and part tables).`);
    }
    return use(db);
  } catch (err) {
    if (err instanceof TraceFileError) throw err;
    throw new TraceFileError('refused', `Cannot read ${path} as an OpenCode database: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db.close();
  }
}

interface SessionRow {
  id: string;
  title: string | null;
  directory: string | null;
  parent_id: string | null;
  time_created: number;
  time_updated: number;
  messages: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The sessions of the OpenCode database at `path`, most recently updated first. */
export function listOpenCodeSessions(path: string, options: OpenCodeDatabaseOptions = {}): OpenCodeSessionSummary[] {
  return withDatabase(path, options, (db) => {
    const rows = db
      .prepare('SELECT s.id, s.title, s.directory, s.parent_id, s.time_created, s.time_updated, (SELECT count(*) FROM message m WHERE m.session_id = s.id) AS messages FROM session s ORDER BY s.time_updated DESC, s.id DESC')
      .all() as SessionRow[];
    return rows.map((r) => ({
      id: r.id,
      title: r.title ?? '',
      directory: r.directory ?? '',
      ...(r.parent_id ? { parentId: r.parent_id } : {}),
      createdAt: iso(r.time_created),
      updatedAt: iso(r.time_updated),
      messages: r.messages,
    }));
  });
}

const parseData = (data: string, what: string): Record<string, unknown> => {
  const v: unknown = JSON.parse(data);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} data is not a JSON object`);
  return v as Record<string, unknown>;
};

/**
 * Session `sessionId` of the OpenCode database at `path` (absent: the most recently updated
 * session that no other spawned) as the text of its export document. A database without sessions,
 * or without that one, is a `TraceFileError` naming the database (and a few of its session ids).
 */
export function readOpenCodeSession(path: string, sessionId?: string, options: OpenCodeDatabaseOptions = {}): { sessionId: string; text: string } {
  return withDatabase(path, options, (db) => {
    const pick = sessionId === undefined ? 'WHERE parent_id IS NULL ORDER BY time_updated DESC, id DESC LIMIT 1' : 'WHERE id = ?';
    const session = db.prepare(`SELECT id, slug, project_id, directory, parent_id, title, version, time_created, time_updated FROM session ${pick}`).get(...(sessionId === undefined ? [] : [sessionId])) as
      | { id: string; slug: string; project_id: string; directory: string; parent_id: string | null; title: string; version: string; time_created: number; time_updated: number }
      | undefined;
    if (!session) {
      const some = (db.prepare('SELECT id FROM session ORDER BY time_updated DESC LIMIT 5').all() as { id: string }[]).map((r) => r.id);
      if (sessionId === undefined || some.length === 0) throw new TraceFileError('refused', `${path} holds no OpenCode session to import.`);
      throw new TraceFileError('not_found', `${path} has no session ${sessionId}; its most recent sessions: ${some.join(', ')}.`);
    }
    const messages = (db.prepare('SELECT id, session_id, data FROM message WHERE session_id = ? ORDER BY time_created, id').all(session.id) as { id: string; session_id: string; data: string }[]).map((m) => ({
      info: { ...parseData(m.data, `message ${m.id}`), id: m.id, sessionID: m.session_id },
      parts: (db.prepare('SELECT id, message_id, session_id, data FROM part WHERE message_id = ? ORDER BY id').all(m.id) as { id: string; message_id: string; session_id: string; data: string }[]).map((p) => ({
        ...parseData(p.data, `part ${p.id}`),
        id: p.id,
        sessionID: p.session_id,
        messageID: p.message_id,
      })),
    }));
    const info = {
      id: session.id,
      slug: session.slug,
      projectID: session.project_id,
      directory: session.directory,
      ...(session.parent_id ? { parentID: session.parent_id } : {}),
      title: session.title,
      version: session.version,
      time: { created: session.time_created, updated: session.time_updated },
    };
    return { sessionId: session.id, text: `${JSON.stringify({ info, messages }, null, 2)}\n` };
  });
}
