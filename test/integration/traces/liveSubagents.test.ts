/**
 * A session and its subagents are one tree in discovery and live attach (`[live-subagents]`):
 * Claude Code's `<session>/subagents/agent-*.jsonl` and Codex's child rollouts are never listed
 * as sessions of their own, and an attached session follows its subagents' files, also ones that
 * appear after attaching, converging to the one-shot import of the finished files.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { discoverSessions } from '../../../engine/node/traces/live/discoverSessions';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { LiveSession } from '../../../engine/node/traces/live/LiveSession';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tmp = tempDir('strata-live-subagents-');
afterAll(() => tmp.remove());
let session: LiveSession | undefined;
afterEach(() => session?.stop());

const jsonl = (...records: object[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const usage = (n: number) => ({ input_tokens: n, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 1 });
const user = (content: unknown, extra: object = {}) => ({ type: 'user', sessionId: 's1', cwd: '/work/app', timestamp: '2026-11-20T10:00:00.000Z', message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], n: number, extra: object = {}) => ({ type: 'assistant', sessionId: 's1', timestamp: '2026-11-20T10:00:01.000Z', message: { id, role: 'assistant', model: 'claude-opus-5-5', content: blocks, usage: usage(n) }, ...extra });

describe('[live-subagents] a session with its subagents is one tree', () => {
  const projects = join(tmp.dir, 'claude', 'projects');
  const project = join(projects, '-work-app');
  const main = join(project, 's1.jsonl');
  const subDir = join(project, 's1', 'subagents');
  const codexDir = join(tmp.dir, 'codex', 'sessions', '2026', '11', '20');

  it('[live-subagents] [live-sessions] discovery lists the session once, with its subagents counted; no subagent file is a session of its own', () => {
    mkdirSync(subDir, { recursive: true });
    mkdirSync(codexDir, { recursive: true });
    writeFileSync(main, jsonl(user('fix it'), assistant('m1', [{ type: 'text', text: 'ok' }], 1)));
    writeFileSync(join(subDir, 'agent-a7.jsonl'), jsonl(user('look', { isSidechain: true, agentId: 'a7' }), assistant('s1', [{ type: 'text', text: 'found' }], 2, { isSidechain: true, agentId: 'a7' })));
    const meta = (id: string, parent?: string) => JSON.stringify({ timestamp: '2026-11-20T10:00:00.000Z', type: 'session_meta', payload: { id, cwd: '/work/app', ...(parent ? { parent_thread_id: parent } : {}) } });
    writeFileSync(join(codexDir, 'rollout-2026-11-20T10-00-00-c1.jsonl'), `${meta('c1')}\n`);
    writeFileSync(join(codexDir, 'rollout-2026-11-20T10-00-05-c2.jsonl'), `${meta('c2', 'c1')}\n`);
    // The extra folder is searched deeply: a subagents folder inside it is still the session's.
    const found = discoverSessions({ claude: projects, codex: join(tmp.dir, 'codex', 'sessions'), extra: [join(tmp.dir, 'claude')] }, { now: Date.parse('2026-11-20T10:00:30Z') });
    expect(found.map((s) => [s.tool, s.path.split('/').at(-1), s.subagents]).sort()).toEqual([
      ['claude-code', 's1.jsonl', 1],
      ['codex', 'rollout-2026-11-20T10-00-00-c1.jsonl', 1],
    ]);
  });

  it('[live-subagents] an attached session follows its subagents\' files, one that appears later too, and ends as the file import does', async () => {
    writeFileSync(main, jsonl(user('fix it'), assistant('m1', [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { prompt: 'look' } }], 1)));
    writeFileSync(join(subDir, 'agent-a7.jsonl'), jsonl(user('look', { isSidechain: true, agentId: 'a7' })));
    writeFileSync(join(subDir, 'agent-a7.meta.json'), JSON.stringify({ agentType: 'Explore', toolUseId: 'toolu_agent' }));
    const replay = (events: readonly TraceEvent[]) => Promise.resolve(replayTrace(events, { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 }));
    let last: ReturnType<LiveSession['snapshot']> | undefined;
    // A manual clock too: a conversion takes no time on it, so the throttle stays 20 ms however slow the machine.
    const clock = manualClock(Date.parse('2026-11-20T10:00:02Z'));
    const scheduler = manualScheduler(clock);
    session = new LiveSession(main, { replay, onUpdate: (s) => (last = s), throttleMs: 20, tail: { pollMs: 10 }, clock, scheduler });
    // The start reads the session and the subagent file there already; the throttle converts them.
    session.start();
    scheduler.advance(20);
    expect(last?.subagents.map((s) => s.key)).toEqual(['a7']);
    expect(last?.real.callsWithUsage).toBe(1);
    await session.idle();
    // The subagent works on; a second one starts after attaching; the main thread finishes.
    appendFileSync(join(subDir, 'agent-a7.jsonl'), jsonl(assistant('s1', [{ type: 'text', text: 'found it' }], 11, { isSidechain: true, agentId: 'a7' })));
    writeFileSync(join(subDir, 'agent-b8.jsonl'), jsonl(user('other', { isSidechain: true, agentId: 'b8' }), assistant('s2', [{ type: 'text', text: 'ok' }], 21, { isSidechain: true, agentId: 'b8' })));
    appendFileSync(main, jsonl(user([{ type: 'tool_result', tool_use_id: 'toolu_agent', content: 'found it' }]), assistant('m2', [{ type: 'text', text: 'done' }], 2)));
    // The next poll finds the new file and reads all three; the throttle converts them once.
    scheduler.advance(10);
    expect(last?.real.callsWithUsage).toBe(1);
    scheduler.advance(20);
    expect(last?.real.callsWithUsage).toBe(4);
    expect(last?.subagents).toHaveLength(2);
    await session.idle();
    const oneShot = importTraceFile(main);
    expect(last!.real.promptTokens).toBe(1 + 11 + 2 + 21);
    expect(last!.events).toBe(oneShot.events.length);
    expect(last!.subagents.map((s) => s.key).sort()).toEqual(['a7', 'b8']);
    expect(last!.shadow?.steps.map((s) => s.agentId ?? 'main').sort()).toEqual(['a7', 'b8', 'main', 'main']);
  }, 120_000);
});
