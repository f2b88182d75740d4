/**
 * A Codex session on disk with a subagent's rollout, as 0.17x lays them out (one rollout per
 * thread under `sessions/YYYY/MM/DD/`, the subagent's `session_meta` naming its parent), read by
 * the file importer as one trace.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Host } from '../../../engine/host';
import { readCodexSubagents } from '../../../engine/node/traces/codexSubagentFiles';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const line = (type: string, payload: object, at: string) => JSON.stringify({ timestamp: at, type, payload });
const rollout = (meta: object, at: (s: number) => string, body: string[]) => [line('session_meta', meta, at(0)), ...body].join('\n') + '\n';
const usage = (id: string, n: number, at: string) => line('token_usage_record', { response_id: id, usage: { input_tokens: n, cached_input_tokens: 0, output_tokens: 1 } }, at);
const say = (text: string, at: string) => line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }, at);

describe('a Codex session with its subagent rollouts', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it('[trace-codex-subagents] the session is read with its subagents (the next day\'s folder too, subagents of subagents), each under its thread id, by the file importer and the catalog import alike', async () => {
    const day1 = join(tmp.dir, 'sessions', '2026', '11', '30');
    const day2 = join(tmp.dir, 'sessions', '2026', '12', '01');
    mkdirSync(day1, { recursive: true });
    mkdirSync(day2, { recursive: true });
    const t = (s: number) => `2026-11-30T23:59:${String(s).padStart(2, '0')}.000Z`;
    const u = (s: number) => `2026-12-01T00:00:${String(s).padStart(2, '0')}.000Z`;
    const main = join(day1, 'rollout-a.jsonl');
    writeFileSync(main, rollout({ id: 'main-1' }, t, [line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }, t(1)), say('spawning', t(2)), usage('r0', 100, t(2)), say('done', u(30)), usage('r1', 110, u(30))]));
    const sub = rollout({ id: 'sub-1', parent_thread_id: 'main-1', source: { subagent: { thread_spawn: { agent_path: '/root/reader' } } } }, u, [
      line('response_item', { type: 'agent_message', content: [{ type: 'input_text', text: 'Message Type: NEW_TASK' }, { type: 'encrypted_content', encrypted_content: 'read the file' }] }, u(1)),
      say('reading', u(2)),
      usage('r2', 50, u(2)),
    ]);
    writeFileSync(join(day2, 'rollout-b.jsonl'), sub);
    writeFileSync(join(day2, 'rollout-c.jsonl'), rollout({ id: 'sub-2', parent_thread_id: 'sub-1' }, u, [say('deeper', u(3)), usage('r3', 20, u(3))]));
    writeFileSync(join(day1, 'rollout-other.jsonl'), rollout({ id: 'other' }, t, [say('unrelated', t(5)), usage('r9', 999, t(5))]));

    expect(readCodexSubagents(main).map((s) => [s.agentId, s.label ?? null])).toEqual([
      ['sub-1', '/root/reader'],
      ['sub-2', null],
    ]);
    const trace = importTraceFile(main);
    expect(trace.events.filter((e) => e.type === 'usage').map((e) => [e.agentId ?? 'main', e.input, e.step])).toEqual([
      ['main', 100, 0],
      ['sub-1', 50, 1],
      ['sub-2', 20, 2],
      ['main', 110, 3],
    ]);
    expect(trace.events.find((e) => e.type === 'user_input' && e.agentId === 'sub-1')).toMatchObject({ text: 'Message Type: NEW_TASK\nread the file' });
    // A subagent's rollout alone is its own run, and finds no subagents of a session.
    expect(readCodexSubagents(join(day2, 'rollout-b.jsonl'))).toEqual([]);
    expect(importTraceFile(join(day2, 'rollout-b.jsonl')).events.filter((e) => e.type === 'usage').map((e) => e.agentId ?? 'main')).toEqual(['main']);

    // The catalog import reads the session the same way: its subagents joined, the same events (it dropped them before).
    const host = Host.open({ catalogPath: join(tmp.dir, 'catalog.sqlite'), workspaceName: 'codex', version: '1', tokenizer: quarterTokenizer, sessionRoots: {} });
    try {
      const stored = await host.connect(() => {}).call('importTrace', { path: main });
      if (!stored.ok) throw new Error(stored.error.message);
      const id = (stored.value as { trace: { id: string; steps: number } }).trace.id;
      expect(host.catalog.traceEvents(id)).toEqual(trace.events);
    } finally {
      host.close();
    }
  });
});
