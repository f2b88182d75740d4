import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealClientRun } from './realClientHarness';

/**
 * Where each client wrote its session under its home, as the pinned versions lay it out:
 * Claude Code `projects/<cwd with / as ->/<session>.jsonl`, its subagents in
 * `<session>/subagents/agent-<id>.jsonl` beside `agent-<id>.meta.json`; Codex
 * `sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`, one per thread, a subagent's naming its
 * parent in `session_meta.payload.parent_thread_id`.
 */

export interface ClaudeSessionFiles {
  session: string;
  subagents: { agentId: string; jsonl: string; meta: string | undefined }[];
}

export function claudeSessionFiles(run: RealClientRun): ClaudeSessionFiles {
  const files = run.files();
  const sessions = files.filter((f) => /^projects\/[^/]+\/[^/]+\.jsonl$/.test(f));
  if (sessions.length !== 1) throw new Error(`expected one Claude Code session file under projects/, found ${sessions.length}: ${sessions.join(', ')}`);
  const session = sessions[0]!;
  const folder = session.replace(/\.jsonl$/, '');
  const subagents = files
    .filter((f) => f.startsWith(`${folder}/subagents/`) && f.endsWith('.jsonl'))
    .map((f) => {
      const agentId = /agent-([^/]+)\.jsonl$/.exec(f)?.[1] ?? f;
      const meta = f.replace(/\.jsonl$/, '.meta.json');
      return { agentId, jsonl: join(run.clientHome, f), meta: files.includes(meta) ? join(run.clientHome, meta) : undefined };
    });
  return { session: join(run.clientHome, session), subagents };
}

export interface CodexRollout {
  path: string;
  threadId: string;
  /** `session_meta.payload.parent_thread_id`, for a subagent's thread. */
  parentThreadId: string | undefined;
  meta: Record<string, unknown>;
}

export function codexRollouts(run: RealClientRun): CodexRollout[] {
  return run
    .files()
    .filter((f) => /^sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-[^/]+\.jsonl$/.test(f))
    .map((f) => {
      const path = join(run.clientHome, f);
      const first = JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!) as { type: string; payload: Record<string, unknown> };
      if (first.type !== 'session_meta') throw new Error(`${f} does not start with session_meta`);
      const parent = first.payload['parent_thread_id'];
      return { path, threadId: String(first.payload['id']), parentThreadId: typeof parent === 'string' ? parent : undefined, meta: first.payload };
    });
}
