/**
 * The subagent rollouts of a Codex session (Node): Codex writes each thread to its own
 * `rollout-*.jsonl` under `sessions/YYYY/MM/DD/`, a subagent's naming its parent in
 * `session_meta.parent_thread_id` (and its path in `source.subagent.thread_spawn.agent_path`).
 * They are looked for beside the session's file and in the next day's folder (a subagent started
 * after midnight), reading only each file's first line; each is then read in place with the same
 * checks as any trace (`readTraceFile`). Subagents of subagents join under the same session.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { importCodexRollout } from '../../traces/codexRollout';
import { readFileHead } from './fileHead';
import { joinRuns, mergeCounts, renumberSteps, type SubagentFile } from '../../traces/joinSubagentRuns';
import { readTraceFile, readTraceFileInSlices } from './readTraceFile';
import type { JsonLine, JsonLinesInput } from '../../traces/jsonText';
import type { TraceImport } from '../../traces/TraceEvent';

export interface CodexRolloutBytes {
  path: string;
  bytes: Buffer;
  agentId: string;
  label?: string;
}

interface RolloutMeta {
  id: string;
  parent?: string;
  label?: string;
}

const HEAD_BYTES = 512 * 1024;

/** The first line's `session_meta` of the rollout at `path`, or undefined. */
function rolloutMeta(path: string): RolloutMeta | undefined {
  const head = readFileHead(path, HEAD_BYTES);
  const first = head?.slice(0, head.indexOf('\n'));
  if (!first) return undefined;
  try {
    const record = JSON.parse(first) as { type?: unknown; payload?: Record<string, unknown> };
    const p = record.payload;
    if (record.type !== 'session_meta' || !p || typeof p['id'] !== 'string') return undefined;
    const spawn = (p['source'] as { subagent?: { thread_spawn?: { agent_path?: unknown; agent_nickname?: unknown } } } | undefined)?.subagent?.thread_spawn;
    const label = [spawn?.agent_path, spawn?.agent_nickname].filter((x): x is string => typeof x === 'string').join(' ');
    return { id: p['id'], ...(typeof p['parent_thread_id'] === 'string' ? { parent: p['parent_thread_id'] } : {}), ...(label ? { label } : {}) };
  } catch {
    return undefined;
  }
}

/** `sessions/YYYY/MM/DD` of the day after the folder `dir`, when `dir` is such a folder. */
function nextDayDir(dir: string): string | undefined {
  const d = basename(dir);
  const m = basename(dirname(dir));
  const y = basename(dirname(dirname(dir)));
  if (!/^\d{4}$/.test(y) || !/^\d{2}$/.test(m) || !/^\d{2}$/.test(d)) return undefined;
  const next = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + 1));
  const pad = (n: number) => String(n).padStart(2, '0');
  return join(dirname(dirname(dirname(dir))), String(next.getUTCFullYear()), pad(next.getUTCMonth() + 1), pad(next.getUTCDate()));
}

function rolloutsIn(dir: string | undefined): string[] {
  if (!dir) return [];
  try {
    return readdirSync(dir)
      .filter((n) => n.startsWith('rollout-') && n.endsWith('.jsonl'))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** A subagent rollout without its bytes. */
export type CodexRolloutInfo = Omit<CodexRolloutBytes, 'bytes'>;

/** The subagent rollouts of the session at `sessionPath` (its descendants), oldest first, without reading them; none for a rollout that is itself a subagent's or has no meta. */
export function listCodexSubagents(sessionPath: string): CodexRolloutInfo[] {
  const own = rolloutMeta(sessionPath);
  if (!own || own.parent) return [];
  const dir = dirname(sessionPath);
  const metas = [...rolloutsIn(dir), ...rolloutsIn(nextDayDir(dir))].flatMap((path) => {
    if (path === sessionPath) return [];
    const meta = rolloutMeta(path);
    return meta?.parent ? [{ path, meta }] : [];
  });
  const family = new Set([own.id]);
  const out: CodexRolloutInfo[] = [];
  // Parents come before their children: repeat until no new descendant joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const { path, meta } of metas) {
      if (family.has(meta.id) || !family.has(meta.parent as string)) continue;
      family.add(meta.id);
      out.push({ path, agentId: meta.id, ...(meta.label ? { label: meta.label } : {}) });
      grew = true;
    }
  }
  return out;
}

/** The subagent rollouts of the session at `sessionPath`, read (see {@link listCodexSubagents}). */
export function readCodexSubagents(sessionPath: string): CodexRolloutBytes[] {
  return listCodexSubagents(sessionPath).map((r) => ({ ...r, bytes: readTraceFile(r.path) }));
}

/** A subagent rollout with its lines parsed already (a live session's), instead of its bytes. */
/** The subagent rollouts of the session at `sessionPath`, read in slices ({@link readTraceFileInSlices}). */
export async function readCodexSubagentsInSlices(sessionPath: string): Promise<CodexRolloutBytes[]> {
  const out: CodexRolloutBytes[] = [];
  for (const r of listCodexSubagents(sessionPath)) out.push({ ...r, bytes: await readTraceFileInSlices(r.path) });
  return out;
}

export type CodexRolloutRecords = CodexRolloutInfo & { records: readonly JsonLine[] };

/** The session in `input` (its text or parsed lines, read from `path`) with its subagent rollouts, as one trace (`[trace-codex-subagents]`). */
export function importCodexSessionFiles(input: JsonLinesInput, path: string, subagents: readonly (CodexRolloutBytes | CodexRolloutRecords)[]): TraceImport {
  const main = importCodexRollout(input, path);
  if (subagents.length === 0) return main;
  const subs: SubagentFile[] = subagents.map((s) => ({ trace: importCodexRollout('records' in s ? s.records : s.bytes.toString('utf8'), s.path), agentId: s.agentId, ...(s.label ? { label: s.label } : {}) }));
  const skipped = { ...main.skipped };
  const unknown = { ...main.unknown };
  for (const s of subs) {
    mergeCounts(skipped, s.trace.skipped);
    mergeCounts(unknown, s.trace.unknown);
  }
  return { ...main, events: renumberSteps(joinRuns(main.events, subs)), skipped, unknown, files: [path, ...subagents.map((s) => s.path)] };
}
