/**
 * The subagent files of a Claude Code session (Node): `<dir>/<session>.jsonl` keeps each subagent's
 * run in `<dir>/<session>/subagents/agent-<id>.jsonl`, described by `agent-<id>.meta.json`
 * (`agentType`, `description`, `toolUseId` of the launching call). Read in place, each with the
 * same checks as any trace file (`readTraceFile`); a missing folder is no subagents, a meta file
 * that is absent or not JSON only loses the launch link.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { importClaudeCode } from '../../traces/claudeCode';
import { claudeSession, type SubagentFile } from '../../traces/claudeSession';
import { readTraceFile, readTraceFileInSlices } from './readTraceFile';
import type { JsonLine, JsonLinesInput } from '../../traces/jsonText';
import type { TraceImport } from '../../traces/TraceEvent';

/** One subagent's files, read. */
export interface SubagentFileBytes {
  path: string;
  bytes: Buffer;
  agentId: string;
  parentCallId?: string;
  label?: string;
}

/** Meta files are small; a larger one is not what Claude Code writes and is left unread. */
const MAX_META_BYTES = 64 * 1024;

/** Whether `path` is itself a subagent's file (`…/subagents/agent-*.jsonl`). */
export function isSubagentFile(path: string): boolean {
  return basename(dirname(path)) === 'subagents' && /^agent-.+\.jsonl$/.test(basename(path));
}

/** The folder where the session at `sessionPath` keeps its subagents' files. */
function subagentDir(sessionPath: string): string {
  return join(dirname(sessionPath), basename(sessionPath, '.jsonl'), 'subagents');
}

function readMeta(path: string): Pick<SubagentFileBytes, 'parentCallId' | 'label'> {
  try {
    if (statSync(path).size > MAX_META_BYTES) return {};
    const meta: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof meta !== 'object' || meta === null) return {};
    const m = meta as Record<string, unknown>;
    const label = [m['agentType'], m['description']].filter((x): x is string => typeof x === 'string' && x !== '').join(': ');
    return { ...(typeof m['toolUseId'] === 'string' ? { parentCallId: m['toolUseId'] } : {}), ...(label ? { label } : {}) };
  } catch {
    return {};
  }
}

/** A subagent's file and what its meta says, without its bytes. */
export type SubagentFileInfo = Omit<SubagentFileBytes, 'bytes'>;

/** The subagent files of the session at `sessionPath`, in name order, without reading them; none for a subagent's own file. */
export function listSubagentFiles(sessionPath: string): SubagentFileInfo[] {
  if (isSubagentFile(sessionPath)) return [];
  const dir = subagentDir(sessionPath);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^agent-.+\.jsonl$/.test(n)).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const id = name.slice('agent-'.length, -'.jsonl'.length);
    return { path: join(dir, name), agentId: id, ...readMeta(join(dir, `agent-${id}.meta.json`)) };
  });
}

/** The subagent files of the session at `sessionPath`, read, in name order; none for a subagent's own file. */
export function readSubagentFiles(sessionPath: string): SubagentFileBytes[] {
  return listSubagentFiles(sessionPath).map((f) => ({ ...f, bytes: readTraceFile(f.path) }));
}

/** A subagent's file with its lines parsed already (a live session's), instead of its bytes. */
export type SubagentFileRecords = SubagentFileInfo & { records: readonly JsonLine[] };

/** The subagent files of the session at `sessionPath`, read in slices ({@link readTraceFileInSlices}), in name order. */
export async function readSubagentFilesInSlices(sessionPath: string): Promise<SubagentFileBytes[]> {
  const out: SubagentFileBytes[] = [];
  for (const f of listSubagentFiles(sessionPath)) out.push({ ...f, bytes: await readTraceFileInSlices(f.path) });
  return out;
}

/** The session in `main` (its text or parsed lines, read from `path`) with the subagents in `subagents`, as one trace. */
export function importClaudeSessionFiles(main: JsonLinesInput, path: string, subagents: readonly (SubagentFileBytes | SubagentFileRecords)[]): TraceImport {
  const subs: SubagentFile[] = subagents.map((s) => ({
    trace: importClaudeCode('records' in s ? s.records : s.bytes.toString('utf8'), s.path, { agentId: s.agentId }),
    agentId: s.agentId,
    ...(s.parentCallId ? { parentCallId: s.parentCallId } : {}),
    ...(s.label ? { label: s.label } : {}),
  }));
  return claudeSession(importClaudeCode(main, path), subs);
}
