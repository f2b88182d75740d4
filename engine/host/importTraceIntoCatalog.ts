import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { MAX_TRACE_CONTENT_BYTES, StrataError, type TraceDto } from '../contract';
import type { Catalog } from '../catalog/Catalog';
import { importTraceText } from '../traces/importTrace';
import { traceCounts } from '../traces/traceCounts';
import { TraceImportError, type TraceImport } from '../traces/TraceEvent';

/** Largest trace file read (the text and its event stream are both held in memory while importing). */
export const MAX_TRACE_BYTES = 256 * 1024 * 1024;

/**
 * Import the trace file at `path` into the catalog (`[trace-import-idempotent]`,
 * `[trace-import-atomic]`): the same bytes, wherever they lie, are the same trace, returned as
 * stored without reading them again. A file that is missing, unreadable or not a trace the importers
 * read (or that records no LLM call of its main agent, so there is nothing to replay) is refused
 * with a `StrataError` naming the file (and the line, for a malformed trace) and writes nothing; a
 * new trace is one row, written in one statement.
 */
export function importTraceIntoCatalog(catalog: Catalog, path: string, now: number): { trace: TraceDto; alreadyImported: boolean } {
  const file = resolve(path);
  return importTraceBytes(catalog, { bytes: readTraceFile(file), name: basename(file), sourcePath: file }, now);
}

/**
 * The bytes of the trace file at `file`, read only when it is a regular file of 1 byte to
 * {@link MAX_TRACE_BYTES}, and never more bytes than it had when checked: a device, a FIFO or a
 * `/proc` file (which reports no size and may block or never end) is refused without being read,
 * and the opened file is checked again (opened without blocking), so one swapped in after the
 * check cannot hang the host either.
 */
function readTraceFile(file: string): Buffer {
  if (file.includes('\0')) throw new StrataError('invalid_args', `${JSON.stringify(file)} contains a NUL byte; give the path of one trace file.`);
  let checked: Stats;
  let fd: number;
  try {
    checked = checkTraceFile(file, statSync(file, { throwIfNoEntry: false }));
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw unreadable(file, err);
  }
  try {
    const opened = checkTraceFile(file, fstatSync(fd));
    if (opened.ino !== checked.ino || opened.dev !== checked.dev) throw new StrataError('invalid_args', `${file} was replaced while it was being opened; import it again.`);
    const bytes = Buffer.alloc(opened.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch (err) {
    throw unreadable(file, err);
  } finally {
    closeSync(fd);
  }
}

/** `info` when it is a regular file of 1 byte to {@link MAX_TRACE_BYTES}; otherwise the refusal, naming `file`. */
function checkTraceFile(file: string, info: Stats | undefined): Stats {
  if (!info) throw new StrataError('not_found', `No trace file at ${file}.`);
  if (!info.isFile()) throw new StrataError('invalid_args', `${file} is not a file; give the path of one trace file.`);
  if (info.size === 0) throw new StrataError('invalid_args', `${file} is empty (or a special file that reports no size); give the path of one trace file.`);
  if (info.size > MAX_TRACE_BYTES) throw new StrataError('invalid_args', `${file} is ${Math.ceil(info.size / 2 ** 20)} MiB; traces up to ${MAX_TRACE_BYTES / 2 ** 20} MiB are imported.`);
  return info;
}

/** A file-system failure as the refusal a person can act on (a `StrataError` passes through). */
function unreadable(file: string, err: unknown): StrataError {
  if (err instanceof StrataError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new StrataError('not_found', `No trace file at ${file}.`);
  return new StrataError('invalid_args', `Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Import trace text sent by a view (`[trace-import-content]`): a file the user picked or dropped,
 * whose path the host cannot know. The same checks, idempotence by SHA-256 and catalog row as
 * {@link importTraceIntoCatalog}; `name` is the file's base name as the view had it, and is also
 * the `sourcePath` recorded (prefixed `upload:`), since there is no host path.
 */
export function importTraceContentIntoCatalog(catalog: Catalog, o: { name: string; content: string }, now: number): { trace: TraceDto; alreadyImported: boolean } {
  const name = basename(o.name.replace(/\\/g, '/'));
  if (!name || name === '.' || name === '..') throw new StrataError('invalid_args', `"${o.name}" is not a file name; give the trace file's base name.`);
  const bytes = Buffer.from(o.content, 'utf8');
  if (bytes.length > MAX_TRACE_CONTENT_BYTES) {
    throw new StrataError('invalid_args', `${name} is ${(bytes.length / 2 ** 20).toFixed(1)} MiB; traces up to ${MAX_TRACE_CONTENT_BYTES / 2 ** 20} MiB can be imported by content. Import a larger file by its path (strata import <file>).`);
  }
  return importTraceBytes(catalog, { bytes, name, sourcePath: `upload:${name}` }, now);
}

function importTraceBytes(catalog: Catalog, o: { bytes: Buffer; name: string; sourcePath: string }, now: number): { trace: TraceDto; alreadyImported: boolean } {
  const sha256 = createHash('sha256').update(o.bytes).digest('hex');
  const stored = catalog.traceBySha256(sha256);
  if (stored) return { trace: stored, alreadyImported: true };

  let imported: TraceImport;
  try {
    imported = importTraceText(o.bytes.toString('utf8'), o.sourcePath);
  } catch (err) {
    if (err instanceof TraceImportError) throw new StrataError('invalid_args', err.message);
    throw err;
  }
  const counts = traceCounts(imported.events);
  if (counts.steps === 0) throw new StrataError('invalid_args', `${o.sourcePath}:1: the trace records no LLM call of its main agent, so there is nothing to replay.`);
  const trace: TraceDto = {
    id: `tr_${sha256.slice(0, 16)}`,
    name: o.name,
    format: imported.format,
    sourcePath: o.sourcePath,
    sha256,
    importedAt: new Date(now).toISOString(),
    ...counts,
  };
  catalog.insertTrace(trace, imported.events);
  return { trace, alreadyImported: false };
}
