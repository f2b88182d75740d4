/**
 * The file-reading entry point of the trace importers (the one module here that uses Node): reads a
 * trace IN PLACE (never copying it) and hands its text to the pure importers. A Claude Code session
 * is read with its subagents' files (`claudeSubagentFiles.ts`), as one trace.
 */
import { importClaudeSessionFiles, readSubagentFiles } from './claudeSubagentFiles';
import { detectTraceFormat, importTraceText } from './importTrace';
import { readTraceFile } from './readTraceFile';
import type { TraceFormat, TraceImport } from './TraceEvent';

/**
 * Events of the trace at `path`, in `format` or the one detected from its content; errors name
 * `path`. Only a regular file within the size cap is read (`readTraceFile`), so a device or a
 * `/proc` path given by mistake is refused instead of hanging the command.
 */
export function importTraceFile(path: string, format?: TraceFormat): TraceImport {
  const text = readTraceFile(path).toString('utf8');
  const chosen = format ?? detectTraceFormat(text, path);
  if (chosen === 'claude-code-jsonl') return importClaudeSessionFiles(text, path, readSubagentFiles(path));
  return importTraceText(text, path, chosen);
}
