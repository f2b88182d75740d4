/**
 * What a trace path names, read in place: a trace file (`readTraceFile`), or a session of an
 * OpenCode database (`readOpenCodeDatabase`), named `<db>` for its most recent top-level session
 * or `<db>#<sessionId>` for one session. The one place the CLI, the compare run and the host turn
 * a path into trace text. A Node adapter.
 */
import { basename } from 'node:path';
import { statSync } from 'node:fs';
import { isSqliteFile, readOpenCodeSession, type OpenCodeDatabaseOptions } from './readOpenCodeDatabase';
import { readTraceFile, readTraceFileInSlices } from './readTraceFile';
import type { TraceFormat } from '../../traces/TraceEvent';

/** A trace as read: its bytes, its name and where it came from, and its format when the source fixes it. */
export interface TraceSourceRead {
  bytes: Buffer;
  /** The file's base name (`opencode.db#ses_…` for a database session). */
  name: string;
  /** The path read (`<db>#<sessionId>` for a database session); importer errors name it. */
  sourcePath: string;
  /** Set for a database session (`opencode-sqlite`); otherwise the text's format is detected. */
  format?: TraceFormat;
}

/**
 * The database and session a path names: a SQLite file itself (its newest session), or
 * `<db>#<sessionId>` when the whole path is no file and the part before the last `#` is a SQLite
 * file. Undefined otherwise, also for a path the system refuses (`readTraceFile` says why).
 */
export function splitDatabasePath(path: string): { db: string; sessionId: string | undefined } | undefined {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile()) return isSqliteFile(path) ? { db: path, sessionId: undefined } : undefined;
    const hash = path.lastIndexOf('#');
    if (hash <= 0 || hash === path.length - 1) return undefined;
    const db = path.slice(0, hash);
    return isSqliteFile(db) ? { db, sessionId: path.slice(hash + 1) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The trace at `path` as {@link readTraceSource} reads it, a file read in slices with the event
 * loop turning between them (`readTraceFileInSlices`); for the host, which must stay responsive.
 */
export async function readTraceSourceInSlices(path: string, options: OpenCodeDatabaseOptions = {}): Promise<TraceSourceRead> {
  const database = path.includes('\0') ? undefined : splitDatabasePath(path);
  if (!database) return { bytes: await readTraceFileInSlices(path), name: basename(path), sourcePath: path };
  return readTraceSource(path, options);
}

/** The trace at `path` (see the module comment); refusals are `TraceFileError`s naming the path. */
export function readTraceSource(path: string, options: OpenCodeDatabaseOptions = {}): TraceSourceRead {
  const database = path.includes('\0') ? undefined : splitDatabasePath(path);
  if (!database) return { bytes: readTraceFile(path), name: basename(path), sourcePath: path };
  const session = readOpenCodeSession(database.db, database.sessionId, options);
  const sourcePath = `${database.db}#${session.sessionId}`;
  return { bytes: Buffer.from(session.text, 'utf8'), name: basename(sourcePath), sourcePath, format: 'opencode-sqlite' };
}
