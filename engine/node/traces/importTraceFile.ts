/**
 * The file-reading entry point of the trace importers: reads a trace IN PLACE (never copying it),
 * a file or an OpenCode database session (`readTraceSource`), and hands its text to the pure
 * importers. A Claude Code session is read with its subagents' files (`claudeSubagentFiles.ts`),
 * a Codex session with its subagents' rollouts (`codexSubagentFiles.ts`), as one trace.
 */
import { readSubagentFiles } from './claudeSubagentFiles';
import { readCodexSubagents } from './codexSubagentFiles';
import { importSessionBytesNow } from './importSessionBytes';
import { readTraceSource } from './readTraceSource';
import type { TraceImport } from '../../traces/TraceEvent';

/**
 * Events of the trace at `path` (a file, `<opencode.db>` or `<opencode.db>#<sessionId>`), in the
 * format the source fixes or its content shows; errors name `path`. Only a regular file within the
 * size cap is read (`readTraceFile`), so a device or a `/proc` path given by mistake is refused
 * instead of hanging the command. Read as the catalog import reads it (`importSessionBytes`): the
 * same lines left out for their length (listed in `skippedLines`), the same subagents joined.
 */
export function importTraceFile(path: string): TraceImport {
  const read = readTraceSource(path);
  const subagents = read.format === undefined ? { claudeSubagents: readSubagentFiles(path), codexSubagents: readCodexSubagents(path) } : {};
  const { skippedLines, ...imported } = importSessionBytesNow({ bytes: read.bytes, sourcePath: read.sourcePath, format: read.format, ...subagents });
  return skippedLines.length > 0 ? { ...imported, skippedLines } : imported;
}
