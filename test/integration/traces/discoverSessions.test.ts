import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionDto } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { defaultSessionRoots, discoverSessions, GROWING_WINDOW_MS } from '../../../engine/node/traces/live/discoverSessions';
import { SESSION_SETTLED_MS } from '../../../engine/traces/turnEnded';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const tmp = tempDir('strata-sessions-');
afterAll(() => tmp.remove());

const jsonl = (...lines: object[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
function put(path: string, text: string, modifiedAt: number) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, modifiedAt / 1000, modifiedAt / 1000);
  return path;
}

const claudeSession = jsonl(
  { type: 'system', subtype: 'local_command', timestamp: '2026-11-30T09:00:00.000Z', cwd: '/home/ana/code/shop-api', sessionId: 's1', version: '2.1.89' },
  { type: 'user', message: { role: 'user', content: 'fix the failing test' }, timestamp: '2026-11-30T09:00:05.000Z', cwd: '/home/ana/code/shop-api', sessionId: 's1' },
  { type: 'assistant', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-6', content: [] }, timestamp: '2026-11-30T09:00:09.000Z', sessionId: 's1' },
);
const codexSession = jsonl(
  { timestamp: '2026-11-29T21:41:54.433Z', type: 'session_meta', payload: { id: 'c1', timestamp: '2026-11-29T21:38:14.318Z', cwd: 'C:\\Users\\Hello\\Desktop\\task-2', originator: 'codex_cli_rs' } },
  { timestamp: '2026-11-29T21:41:54.437Z', type: 'event_msg', payload: { type: 'task_started' } },
  { timestamp: '2026-11-29T21:41:55.000Z', type: 'turn_context', payload: { cwd: 'C:\\Users\\Hello\\Desktop\\task-2', model: 'gpt-5.4' } },
);

describe('[live-sessions] finding the sessions Claude Code and Codex are writing', () => {
  const home = join(tmp.dir, 'home');
  const claudeFile = put(join(home, '.claude', 'projects', '-home-ana-code-shop-api', 's1.jsonl'), claudeSession, NOW - 5_000);
  const codexFile = put(join(home, '.codex', 'sessions', '2026', '11', '29', 'rollout-2026-11-29T21-38-14-c1.jsonl'), codexSession, NOW - 3 * 3600_000);
  // Not a session: another file in Codex's folder. A session whose first line is still being written is one.
  put(join(home, '.codex', 'sessions', '2026', '11', '29', 'notes.jsonl'), codexSession, NOW);
  const starting = put(join(home, '.claude', 'projects', '-tmp-x', 'starting.jsonl'), '{"type":"user","sessionId":"s', NOW);

  it('[live-sessions] lists both tools from their standard folders, newest first, with project, model, start, size and growth', () => {
    const sessions = discoverSessions(defaultSessionRoots({}, home), { now: NOW });
    expect(sessions.map((s) => s.path)).toEqual([starting, claudeFile, codexFile]);
    expect(sessions[0]).toMatchObject({ tool: 'claude-code', project: '-tmp-x', cwd: null, model: null, startedAt: null, growing: true });
    sessions.shift();
    // Its last turn ended, but it was written 5 s ago: not done yet, still growing.
    expect(sessions[0]).toMatchObject({ tool: 'claude-code', project: 'shop-api', cwd: '/home/ana/code/shop-api', model: 'claude-opus-4-6', startedAt: Date.parse('2026-11-30T09:00:00.000Z'), size: Buffer.byteLength(claudeSession), growing: true, done: false });
    expect(sessions[1]).toMatchObject({ tool: 'codex', project: 'task-2', model: 'gpt-5.4', startedAt: Date.parse('2026-11-29T21:38:14.318Z'), growing: false, done: false });
    expect(NOW - sessions[1]!.modifiedAt).toBeGreaterThan(GROWING_WINDOW_MS);
  });

  it('[live-sessions] CLAUDE_CONFIG_DIR and CODEX_HOME move the standard folders; a missing folder lists nothing', () => {
    expect(defaultSessionRoots({ CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex' }, '/home/x')).toEqual({ claude: '/cfg/claude/projects', codex: '/cfg/codex/sessions' });
    expect(discoverSessions({ claude: join(tmp.dir, 'nowhere'), codex: join(tmp.dir, 'nowhere-either') }, { now: NOW })).toEqual([]);
  });

  it('[live-sessions] an extra folder (--sessions-dir) is searched for files either tool wrote, told apart by content', () => {
    const extra = join(tmp.dir, 'elsewhere');
    put(join(extra, 'a', 'one.jsonl'), claudeSession, NOW - 1_000);
    put(join(extra, 'two.jsonl'), codexSession, NOW - 2_000);
    put(join(extra, 'other.jsonl'), jsonl({ hello: 'world' }), NOW);
    const sessions = discoverSessions({ extra: [extra] }, { now: NOW });
    expect(sessions.map((s) => [s.tool, s.project])).toEqual([
      ['claude-code', 'shop-api'],
      ['codex', 'task-2'],
    ]);
    expect(discoverSessions({ extra: [extra] }, { now: NOW, limit: 1 })).toHaveLength(1);
  });

  const shared = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
  if (!existsSync(shared)) console.warn(`discoverSessions: the real-sessions test is SKIPPED, ${shared} does not exist (set STRATA_TRACES_DIR)`);
  it.skipIf(!existsSync(shared))('[live-sessions] describes the real shared sessions in place: tool and model as recorded', () => {
    const sessions = discoverSessions({ extra: [join(shared, 'claude-code-jsonl'), join(shared, 'codex-rollout-jsonl')] }, { now: NOW, limit: 500 });
    const claude = sessions.filter((s) => s.path.includes('claude-code-jsonl'));
    const codex = sessions.filter((s) => s.path.includes('codex-rollout-jsonl'));
    expect(claude.length).toBeGreaterThanOrEqual(4);
    expect(codex.length).toBeGreaterThanOrEqual(3);
    expect(claude.every((s) => s.tool === 'claude-code' && s.model?.startsWith('claude-'))).toBe(true);
    expect(codex.every((s) => s.tool === 'codex' && s.model?.startsWith('gpt-'))).toBe(true);
    expect(sessions.find((s) => s.path.endsWith('Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl'))).toMatchObject({ project: 'TASK-15', model: 'claude-sonnet-4-6' });
  });

  describe('[live-done] a listed session is done by the rule an attached one follows: its last turn ended and the file is quiet', () => {
    const dir = join(tmp.dir, 'done');
    const user = (text: string) => ({ type: 'user', sessionId: 's2', cwd: '/home/ana/code/web', timestamp: '2026-11-30T11:00:00.000Z', message: { role: 'user', content: text } });
    const answer = { type: 'assistant', sessionId: 's2', timestamp: '2026-11-30T11:00:09.000Z', message: { id: 'm2', role: 'assistant', model: 'claude-opus-4-6', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Fixed: the test passes.' }] } };
    const toolCall = { type: 'assistant', sessionId: 's2', timestamp: '2026-11-30T11:00:09.000Z', message: { id: 'm3', role: 'assistant', model: 'claude-opus-4-6', stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }] } };
    const list = () => new Map(discoverSessions({ extra: [dir] }, { now: NOW }).map((x) => [x.path, x]));

    it('[live-done] ended and quiet SESSION_SETTLED_MS: done and not growing; a moment earlier, growing; a tool call under way never done', () => {
      const ended = put(join(dir, 'ended.jsonl'), jsonl(user('fix it'), answer), NOW - SESSION_SETTLED_MS);
      const justEnded = put(join(dir, 'just-ended.jsonl'), jsonl(user('fix it'), answer), NOW - SESSION_SETTLED_MS + 1);
      const calling = put(join(dir, 'calling.jsonl'), jsonl(user('fix it'), toolCall), NOW - 30_000);
      const stale = put(join(dir, 'stale.jsonl'), jsonl(user('fix it'), toolCall), NOW - 3 * GROWING_WINDOW_MS);
      const codexDone = put(join(dir, 'rollout-done.jsonl'), codexSession + jsonl({ timestamp: '2026-11-29T21:42:10.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] } }, { timestamp: '2026-11-29T21:42:11.000Z', type: 'event_msg', payload: { type: 'task_complete' } }), NOW - 20_000);
      const found = list();
      expect(found.get(ended)).toMatchObject({ done: true, growing: false });
      expect(found.get(justEnded)).toMatchObject({ done: false, growing: true });
      expect(found.get(calling)).toMatchObject({ done: false, growing: true });
      expect(found.get(stale)).toMatchObject({ done: false, growing: false });
      expect(found.get(codexDone)).toMatchObject({ tool: 'codex', done: true, growing: false });
    });

    it('[live-done] read from the file’s end: a long file whose last 64 KiB starts inside a line is still told done, its head still described', () => {
      const long = put(join(dir, 'long.jsonl'), jsonl(user('x'.repeat(100_000)), user('y'.repeat(100_000)), answer), NOW - 30_000);
      const reopened = put(join(dir, 'reopened.jsonl'), jsonl(user('x'.repeat(100_000)), answer, user('and add a test')), NOW - 30_000);
      const found = list();
      expect(found.get(long)).toMatchObject({ tool: 'claude-code', project: 'web', done: true, growing: false });
      // The person asked again after the answer: a turn is under way.
      expect(found.get(reopened)).toMatchObject({ done: false, growing: true });
    });
  });

  it('[live-sessions] listSessions answers through the host with ISO times and the folders it searched', async () => {
    const roots = defaultSessionRoots({}, home);
    const host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'w', version: '1', tokenizer: quarterTokenizer, sessionRoots: roots });
    try {
      const conn = host.connect(() => {});
      const envelope = await conn.call('listSessions', { limit: 2 });
      expect(envelope.ok).toBe(true);
      const value = (envelope as { value: { sessions: SessionDto[]; roots: string[] } }).value;
      expect(value.roots).toEqual([roots.claude, roots.codex]);
      expect(value.sessions).toHaveLength(2);
      // The host's own clock is long past NOW: the file ended its turn and has been quiet since, so it is done.
      expect(value.sessions[1]).toMatchObject({ path: claudeFile, tool: 'claude-code', project: 'shop-api', model: 'claude-opus-4-6', startedAt: '2026-11-30T09:00:00.000Z', modifiedAt: new Date(NOW - 5_000).toISOString(), done: true, growing: false });
      expect(await conn.call('listSessions', { limit: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
      expect(await conn.call('listSessions', { dir: '/etc' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    } finally {
      host.close();
    }
  });
});
