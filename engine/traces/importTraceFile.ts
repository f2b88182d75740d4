/**
 * The file-reading entry point of the trace importers: reads a trace IN PLACE (never copying it),
 * a file or an OpenCode database session (`readTraceSource`), and hands its text to the pure
 * importers. A Claude Code session is read with its subagents' files (`claudeSubagentFiles.ts`),
 * a Codex session with its subagents' rollouts (`codexSubagentFiles.ts`), as one trace.
 */
import { importClaudeSessionFiles, readSubagentFiles } from './claudeSubagentFiles';
import { importCodexSessionFiles, readCodexSubagents } from './codexSubagentFiles';
import { detectTraceFormat, importTraceText } from './importTrace';
import { readTraceSource } from './readTraceSource';
import type { TraceFormat, TraceImport } from './TraceEvent';

/**
 * Events of the trace at `path` (a file, `<opencode.db>` or `<opencode.db>#<sessionId>`), in
 * `format` or the one the source fixes or its content shows; errors name `path`. Only a regular
 * file within the size cap is read (`readTraceFile`), so a device or a `/proc` path given by
 * mistake is refused instead of hanging the command.
 */
export function importTraceFile(path: string, format?: TraceFormat): TraceImport {
  const read = readTraceSource(path);
  const text = read.bytes.toString('utf8');
  const chosen = format ?? read.format ?? detectTraceFormat(text, read.sourcePath);
  if (chosen === 'claude-code-jsonl') return importClaudeSessionFiles(text, read.sourcePath, readSubagentFiles(path));
  if (chosen === 'codex-rollout-jsonl') return importCodexSessionFiles(text, read.sourcePath, readCodexSubagents(path));
  return importTraceText(text, read.sourcePath, chosen);
}
