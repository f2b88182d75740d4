/**
 * The one way a trace's bytes become events, for the catalog import (`importTraceIntoCatalog`, the
 * event loop turning between slices) and for a file read in place (`importTraceFile`: `strata
 * compare`, the replay workers), so both give the same events from the same file: a JSON Lines
 * trace parsed line by line with the line cap (`[trace-line-cap]`), a Claude Code session joined
 * with its subagents' files and a Codex session with its subagents' rollouts; any other trace, or
 * a JSON document, through its importer whole.
 */
import { claudeSession } from '../../traces/claudeSession';
import { importClaudeCode } from '../../traces/claudeCode';
import { importClaudeSessionFiles, type SubagentFileBytes, type SubagentFileRecords } from './claudeSubagentFiles';
import { importCodexSessionFiles, type CodexRolloutBytes, type CodexRolloutRecords } from './codexSubagentFiles';
import { detectRecordsFormat } from '../../traces/detectTraceFormat';
import { detectTraceFormat, importTraceText } from '../../traces/importTrace';
import { jsonLinesText } from '../../traces/jsonText';
import { drainSteps, driveSteps, traceLineSteps, type ImportSteps } from './readTraceLines';
import type { SkippedTraceLine, TraceFormat, TraceImport } from '../../traces/TraceEvent';

export interface SessionBytes {
  bytes: Buffer;
  /** The path the bytes were read from (importer errors and skipped lines name it). */
  sourcePath: string;
  /** Set when the source fixes the format (an OpenCode database session); else it is detected. */
  format?: TraceFormat | undefined;
  /** A Claude Code session's subagent files, read. */
  claudeSubagents?: readonly SubagentFileBytes[];
  /** A Codex session's subagent rollouts, read. */
  codexSubagents?: readonly CodexRolloutBytes[];
}

/** The events, with every line left out for its length (the session's and its subagents'). */
function* sessionImportSteps(o: SessionBytes): ImportSteps<TraceImport & { skippedLines: SkippedTraceLine[] }> {
  const claudeSubs = o.claudeSubagents ?? [];
  const codexSubs = o.codexSubagents ?? [];
  const lines = o.format === undefined ? yield* traceLineSteps(o.bytes, o.sourcePath) : undefined;
  if (!lines) {
    const text = o.bytes.toString('utf8');
    const format = o.format ?? detectTraceFormat(text, o.sourcePath);
    const imported = format === 'claude-code-jsonl' && claudeSubs.length > 0 ? importClaudeSessionFiles(text, o.sourcePath, claudeSubs) : format === 'codex-rollout-jsonl' && codexSubs.length > 0 ? importCodexSessionFiles(text, o.sourcePath, codexSubs) : importTraceText(text, o.sourcePath, format);
    return { ...imported, skippedLines: [] };
  }
  const skippedLines = [...lines.skipped];
  const format = detectRecordsFormat(lines.records, o.sourcePath);
  if (format === 'claude-code-jsonl') {
    if (claudeSubs.length === 0) return { ...claudeSession(importClaudeCode(lines.records, o.sourcePath)), skippedLines };
    const subs: (SubagentFileBytes | SubagentFileRecords)[] = [];
    for (const s of claudeSubs) {
      const sub = yield* traceLineSteps(s.bytes, s.path);
      if (!sub) subs.push(s);
      else {
        skippedLines.push(...sub.skipped);
        subs.push({ path: s.path, agentId: s.agentId, ...(s.parentCallId ? { parentCallId: s.parentCallId } : {}), ...(s.label ? { label: s.label } : {}), records: sub.records });
      }
    }
    return { ...importClaudeSessionFiles(lines.records, o.sourcePath, subs), skippedLines };
  }
  if (format === 'codex-rollout-jsonl') {
    const subs: (CodexRolloutBytes | CodexRolloutRecords)[] = [];
    for (const s of codexSubs) {
      const sub = yield* traceLineSteps(s.bytes, s.path);
      if (!sub) subs.push(s);
      else {
        skippedLines.push(...sub.skipped);
        subs.push({ path: s.path, agentId: s.agentId, ...(s.label ? { label: s.label } : {}), records: sub.records });
      }
    }
    return { ...importCodexSessionFiles(lines.records, o.sourcePath, subs), skippedLines };
  }
  return { ...importTraceText(jsonLinesText(lines.records), o.sourcePath, format), skippedLines };
}

/** {@link sessionImportSteps} with a turn of the event loop after every slice of lines (the host). */
export function importSessionBytes(o: SessionBytes): Promise<TraceImport & { skippedLines: SkippedTraceLine[] }> {
  return driveSteps(sessionImportSteps(o));
}

/** {@link sessionImportSteps} in one go (a worker thread, the CLI). */
export function importSessionBytesNow(o: SessionBytes): TraceImport & { skippedLines: SkippedTraceLine[] } {
  return drainSteps(sessionImportSteps(o));
}
