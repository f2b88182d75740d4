import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { MAX_TRACE_CONTENT_BYTES, StrataError, type TraceDto } from '../contract';
import type { Catalog } from '../node/catalog/Catalog';
import { maskDeep, maskSecrets } from '../privacy/maskSecrets';
import { readSubagentFilesInSlices, type SubagentFileBytes } from '../node/traces/claudeSubagentFiles';
import { readCodexSubagentsInSlices, type CodexRolloutBytes } from '../node/traces/codexSubagentFiles';
import { importSessionBytes } from '../node/traces/importSessionBytes';
import type { SkippedTraceLine } from '../node/traces/readTraceLines';
import { readTraceSourceInSlices } from '../node/traces/readTraceSource';
import { traceCounts } from '../traces/traceCounts';
import { TraceImportError, type TraceFormat } from '../traces/TraceEvent';
import { TraceFileError } from '../traces/TraceFileError';

export { MAX_TRACE_BYTES } from '../node/traces/readTraceFile';

/** What an import gave: the trace stored (or stored already) and the lines it left out for their length. */
export interface TraceImportOutcome {
  trace: TraceDto;
  alreadyImported: boolean;
  /** Lines longer than the line cap, skipped unparsed (`[trace-line-cap]`); absent when none were. */
  skippedLines?: SkippedTraceLine[];
}

/**
 * Import the trace file at `path` into the catalog (`[trace-import-idempotent]`,
 * `[trace-import-atomic]`): the same bytes, wherever they lie, are the same trace, returned as
 * stored without reading them again. A file that is missing, unreadable or not a trace the importers
 * read (or that records no LLM call, so there is nothing to replay) is refused
 * with a `StrataError` naming the file (and the line, for a malformed trace) and writes nothing; a
 * new trace is one row, written in one statement. An OpenCode database (`<db>` for its most recent
 * session, `<db>#<sessionId>` for one) is read without being changed (`[trace-opencode-sqlite]`):
 * its session's export document is the bytes hashed and imported, with `nativeBinding` the SQLite
 * module to open it with (Electron's build, as for the catalog). The file is read in slices and a
 * JSON Lines trace parsed line by line, with the event loop turning between them
 * (`[trace-import-yields]`); a line over the cap is skipped unparsed and listed (`[trace-line-cap]`).
 */
export async function importTraceIntoCatalog(catalog: Catalog, path: string, now: number, options: { nativeBinding?: string | undefined } = {}): Promise<TraceImportOutcome> {
  return maskedRefusals(async () => {
    const file = resolve(path);
    const read = await readTraceSourceInSlices(file, options);
    // A Claude Code or Codex session is one trace with its subagents' files (`[trace-claude-subagents]`, `[trace-codex-subagents]`).
    const subagents = read.format === undefined ? { claudeSubagents: await readSubagentFilesInSlices(file), codexSubagents: await readCodexSubagentsInSlices(file) } : {};
    return importTraceBytes(catalog, { ...read, ...subagents }, now);
  });
}

/**
 * Import trace text sent by a view (`[trace-import-content]`): a file the user picked or dropped,
 * whose path the host cannot know. The same checks, idempotence by SHA-256 and catalog row as
 * {@link importTraceIntoCatalog}; `name` is the file's base name as the view had it, and is also
 * the `sourcePath` recorded (prefixed `upload:`), since there is no host path.
 */
export async function importTraceContentIntoCatalog(catalog: Catalog, o: { name: string; content: string }, now: number): Promise<TraceImportOutcome> {
  return maskedRefusals(async () => {
    const name = basename(o.name.replace(/\\/g, '/'));
    if (!name || name === '.' || name === '..') throw new StrataError('invalid_args', `"${o.name}" is not a file name; give the trace file's base name.`);
    const bytes = Buffer.from(o.content, 'utf8');
    if (bytes.length > MAX_TRACE_CONTENT_BYTES) {
      throw new StrataError('invalid_args', `${name} is ${(bytes.length / 2 ** 20).toFixed(1)} MiB; traces up to ${MAX_TRACE_CONTENT_BYTES / 2 ** 20} MiB can be imported by content. Import a larger file by its path (strata import <file>).`);
    }
    return importTraceBytes(catalog, { bytes, name, sourcePath: `upload:${name}` }, now);
  });
}

/**
 * `run`, with a refusal's message masked (`[trace-names-masked]`): refusals name the file, and a
 * file may be named after a key.
 */
async function maskedRefusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StrataError) throw new StrataError(err.code, maskSecrets(err.message), err.issues);
    if (err instanceof TraceFileError) throw new TraceFileError(err.code, maskSecrets(err.message));
    if (err instanceof TraceImportError) throw new TraceImportError(maskSecrets(err.file), err.line, maskSecrets(err.problem), err.column);
    throw err;
  }
}

/** Bytes hashed between two turns of the event loop (`[trace-import-yields]`). */
const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/** The trace's identity: its bytes, and with subagent files each one's name and bytes after them; hashed in slices with turns of the event loop between. */
async function traceHash(bytes: Buffer, subagents: readonly { path: string; bytes: Buffer }[]): Promise<string> {
  const hash = createHash('sha256');
  const feed = async (b: Buffer) => {
    for (let at = 0; at < b.length; at += HASH_SLICE_BYTES) {
      hash.update(b.subarray(at, at + HASH_SLICE_BYTES));
      if (at + HASH_SLICE_BYTES < b.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  await feed(bytes);
  for (const s of subagents) {
    hash.update(`\0${basename(s.path)}\0`);
    await feed(s.bytes);
  }
  return hash.digest('hex');
}

async function importTraceBytes(
  catalog: Catalog,
  o: { bytes: Buffer; name: string; sourcePath: string; format?: TraceFormat | undefined; claudeSubagents?: SubagentFileBytes[]; codexSubagents?: CodexRolloutBytes[] },
  now: number,
): Promise<TraceImportOutcome> {
  const subagents = [...(o.claudeSubagents ?? []), ...(o.codexSubagents ?? [])];
  const sha256 = await traceHash(o.bytes, subagents);
  const stored = catalog.traceBySha256(sha256);
  if (stored) return { trace: stored, alreadyImported: true };

  // A trace that cannot be parsed throws TraceImportError; the dispatcher maps it (`[error-model]`).
  const { skippedLines: skipped, ...imported } = await importSessionBytes(o);
  const counts = traceCounts(imported.events);
  if (counts.steps === 0) throw new StrataError('invalid_args', `${o.sourcePath}:1: the trace records no LLM call, so there is nothing to replay.`);
  // The same bytes may have been imported meanwhile (the parse above let other commands run).
  const meanwhile = catalog.traceBySha256(sha256);
  if (meanwhile) return { trace: meanwhile, alreadyImported: true };
  const trace: TraceDto = {
    id: `tr_${sha256.slice(0, 16)}`,
    // A file may be named after a key pasted by mistake: the name and path are masked like the events (`[trace-names-masked]`).
    name: maskSecrets(o.name),
    format: imported.format,
    sourcePath: maskSecrets(o.sourcePath),
    sha256,
    importedAt: new Date(now).toISOString(),
    ...counts,
  };
  // A recorded session holds whatever went through the agent, keys included: the catalog keeps its events masked (`[mask-secrets]`).
  catalog.insertTrace(trace, maskDeep(imported.events));
  return { trace, alreadyImported: false, ...(skipped.length > 0 ? { skippedLines: skipped.map((s) => ({ ...s, file: maskSecrets(s.file) })) } : {}) };
}
