import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, win32 } from 'node:path';
import { listSubagentFiles } from '../claudeSubagentFiles';
import { readFileHead, readFileTail } from '../fileHead';
import { isRecord, type JsonLine } from '../../../traces/jsonText';
import { sessionDone, turnEnded } from '../../../traces/turnEnded';

/** The agent tool that wrote a session file. */
type SessionTool = 'claude-code' | 'codex';

/** One session file found on this machine, described from its first lines without reading it all. */
export interface SessionInfo {
  path: string;
  tool: SessionTool;
  /** The project: the working folder's name (or Claude Code's project folder when the file names none). */
  project: string;
  /** The working folder the session ran in, as recorded. */
  cwd: string | null;
  model: string | null;
  /** When the session started, from its first timestamp (ms since the epoch). */
  startedAt: number | null;
  size: number;
  modifiedAt: number;
  /** Written to within the last {@link GROWING_WINDOW_MS} and not done: probably still running. */
  growing: boolean;
  /** Its last turn ended and the file has been quiet since (`[live-done]`, the rule an attached session's main agent follows). */
  done: boolean;
  /** Subagents whose own files belong to this session (attached and imported with it, never listed apart). */
  subagents: number;
}

export interface SessionRoots {
  /** Claude Code's projects folder (`~/.claude/projects`). */
  claude?: string | undefined;
  /** Codex CLI's sessions folder (`~/.codex/sessions`). */
  codex?: string | undefined;
  /** Any other folders to search (`--sessions-dir`, settings); the tool is told from the content. */
  extra?: readonly string[];
}

/** A file modified this recently counts as still growing. */
export const GROWING_WINDOW_MS = 60_000;
/** How much of a file's start is read to describe it. */
const HEAD_BYTES = 256 * 1024;
/** How much of a file's end is read to tell whether its last turn ended (the closing lines are short). */
const TAIL_BYTES = 64 * 1024;
/** How deep below a root session files are looked for (Codex: sessions/YYYY/MM/DD/). */
const MAX_DEPTH = 5;

/** The standard locations: `~/.claude/projects` and `~/.codex/sessions` (CLAUDE_CONFIG_DIR and CODEX_HOME move them). */
export function defaultSessionRoots(env: NodeJS.ProcessEnv = process.env, home = homedir()): SessionRoots {
  return {
    claude: join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects'),
    codex: join(env.CODEX_HOME || join(home, '.codex'), 'sessions'),
  };
}

/**
 * Recent session files under the roots, newest first (at most `limit`): Claude Code's
 * `<project>/*.jsonl` and Codex's `rollout-*.jsonl`, and any `.jsonl` under the extra folders whose
 * first lines one of the two tools wrote. Missing or unreadable folders are skipped; a file is only
 * ever opened for reading.
 */
export function discoverSessions(roots: SessionRoots, o: { now?: number; limit?: number } = {}): SessionInfo[] {
  const now = o.now ?? Date.now();
  const found = new Map<string, Described>();
  const consider = (path: string, expected?: SessionTool) => {
    if (found.has(path)) return;
    const info = describeSession(path, now, expected);
    if (info) found.set(path, info);
  };
  if (roots.claude) for (const f of jsonlFiles(roots.claude, 1)) consider(f, 'claude-code');
  if (roots.codex) for (const f of jsonlFiles(roots.codex, MAX_DEPTH)) if (basename(f).startsWith('rollout-')) consider(f, 'codex');
  for (const dir of roots.extra ?? []) for (const f of jsonlFiles(dir, MAX_DEPTH)) consider(f);
  // A Codex subagent's rollout is part of its parent's session: counted there, not listed.
  const children = new Map<string, number>();
  for (const info of found.values()) if (info.parentThread) children.set(info.parentThread, (children.get(info.parentThread) ?? 0) + 1);
  const sessions = [...found.values()].filter((info) => !info.parentThread).map(({ parentThread: _p, threadId, ...info }) => ({ ...info, subagents: info.subagents + (threadId ? (children.get(threadId) ?? 0) : 0) }));
  const listed = sessions.sort((a, b) => b.modifiedAt - a.modifiedAt || a.path.localeCompare(b.path)).slice(0, o.limit ?? 200);
  // Only the listed files' ends are read: whether each is done, by the rule an attached session follows.
  return listed.map((info) => {
    const done = sessionDone(lastTurnEnded(info.path, info.tool), now - info.modifiedAt);
    return { ...info, done, growing: info.growing && !done };
  });
}

/** Whether the last turn in the file's closing lines ended (`turnEnded`); false when they cannot be read or do not say. */
function lastTurnEnded(path: string, tool: SessionTool): boolean {
  const tail = readFileTail(path, TAIL_BYTES);
  if (tail === undefined) return false;
  const records: JsonLine[] = [];
  for (const [i, line] of tail.split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (isRecord(value)) records.push({ line: i + 1, value });
    } catch {
      // A broken line says nothing about the turn; the rest still may.
    }
  }
  return turnEnded(records, tool === 'claude-code' ? 'claude-code-jsonl' : 'codex-rollout-jsonl');
}

/** A file as its first lines describe it, before its end is read. */
type Described = Omit<SessionInfo, 'done'> & { parentThread?: string; threadId?: string };

/** `.jsonl` files below `dir`, at most `depth` folders down; nothing when `dir` cannot be read. */
function jsonlFiles(dir: string, depth: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const full = join(dir, name);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    // A Claude Code session's `subagents/` folder holds its subagents' files: part of that session.
    if (st.isDirectory() && depth > 0 && name !== 'subagents') out.push(...jsonlFiles(full, depth - 1));
    else if (st.isFile() && name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/** The session a file holds, from its first lines; undefined when neither tool wrote it. */
function describeSession(path: string, now: number, expected?: SessionTool): Described | undefined {
  let st;
  try {
    st = statSync(path);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return undefined;
  const head = readFileHead(path, HEAD_BYTES);
  if (head === undefined) return undefined;
  const meta = sessionMeta(head);
  const tool = meta.tool ?? expected;
  if (!tool) return undefined;
  const cwd = meta.cwd;
  const project = cwd ? lastSegment(cwd) : tool === 'claude-code' ? basename(join(path, '..')) : basename(path, '.jsonl');
  const subagents = tool === 'claude-code' ? listSubagentFiles(path).length : 0;
  return {
    path,
    tool,
    project,
    cwd,
    model: meta.model,
    startedAt: meta.startedAt,
    size: st.size,
    modifiedAt: st.mtimeMs,
    growing: now - st.mtimeMs < GROWING_WINDOW_MS,
    subagents,
    ...(meta.threadId ? { threadId: meta.threadId } : {}),
    ...(meta.parentThread ? { parentThread: meta.parentThread } : {}),
  };
}

/** Folder names recorded on Windows (`C:\\Users\\…\\TASK-15`) or POSIX end the same way here. */
function lastSegment(cwd: string): string {
  return (cwd.includes('\\') ? win32.basename(cwd) : basename(cwd)) || cwd;
}

/** What the first complete lines say: which tool, working folder, model and start time. */
function sessionMeta(head: string): { tool: SessionTool | undefined; cwd: string | null; model: string | null; startedAt: number | null; threadId?: string; parentThread?: string } {
  let threadId: string | undefined;
  let parentThread: string | undefined;
  let tool: SessionTool | undefined;
  let cwd: string | null = null;
  let model: string | null = null;
  let startedAt: number | null = null;
  for (const line of head.split('\n')) {
    if (!line.trim()) continue;
    let v: Record<string, unknown>;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue;
      v = parsed as Record<string, unknown>;
    } catch {
      continue;
    }
    const payload = (typeof v.payload === 'object' && v.payload !== null ? v.payload : {}) as Record<string, unknown>;
    const message = (typeof v.message === 'object' && v.message !== null ? v.message : {}) as Record<string, unknown>;
    if (v.type === 'session_meta' || v.type === 'turn_context' || (v.type === 'event_msg' && 'payload' in v) || (v.type === 'response_item' && 'payload' in v)) tool ??= 'codex';
    else if (typeof v.sessionId === 'string' && (v.type === 'user' || v.type === 'assistant' || v.type === 'system' || v.type === 'summary')) tool ??= 'claude-code';
    // Codex's session_meta carries the session's own start; its line's timestamp is when it was written.
    const stamp = v.type === 'session_meta' && typeof payload.timestamp === 'string' ? payload.timestamp : v.timestamp;
    const at = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
    if ((startedAt === null || v.type === 'session_meta') && Number.isFinite(at)) startedAt = at;
    if (v.type === 'session_meta' && typeof payload.id === 'string') threadId ??= payload.id;
    if (v.type === 'session_meta' && typeof payload.parent_thread_id === 'string') parentThread ??= payload.parent_thread_id;
    if (cwd === null && typeof v.cwd === 'string') cwd = v.cwd;
    if (cwd === null && typeof payload.cwd === 'string') cwd = payload.cwd;
    if (model === null && typeof payload.model === 'string') model = payload.model;
    if (model === null && typeof message.model === 'string' && message.model !== '<synthetic>') model = message.model;
    if (tool && cwd !== null && model !== null && startedAt !== null) break;
  }
  return { tool, cwd, model, startedAt, ...(threadId ? { threadId } : {}), ...(parentThread ? { parentThread } : {}) };
}
