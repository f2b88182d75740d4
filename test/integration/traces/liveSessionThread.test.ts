/**
 * An attached session is followed in a worker thread of its own (`[live-thread]`, issue 20 item
 * 10): the host's thread parses, converts and replays none of it, yet shows the same figures as a
 * one-shot import; a thread that fails says so in the session's status.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LiveSessions } from '../../../engine/host/LiveSessions';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { importTraceText } from '../../../engine/traces/importTrace';
import { LiveSession } from '../../../engine/node/traces/live/LiveSession';
import { ParsedLines } from '../../../engine/node/traces/live/ParsedLines';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const claudeTrace = join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl');
const have = existsSync(claudeTrace);
if (!have) console.warn(`liveSessionThread: SKIPPED, the shared Claude Code trace is not at ${tracesDir} (set STRATA_TRACES_DIR)`);

const tmp = tempDir('strata-live-thread-');
afterAll(() => tmp.remove());
let sessions: LiveSessions | undefined;
afterEach(() => {
  sessions?.close();
  sessions = undefined;
  vi.restoreAllMocks();
});

describe.skipIf(!have)('[live-thread] an attached session in its own thread', () => {
  it('[live-thread] the host thread parses, converts and replays nothing of it; its figures equal the one-shot import', async () => {
    const text = `${readFileSync(claudeTrace, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, 150).join('\n')}\n`;
    const file = join(tmp.dir, 'threaded.jsonl');
    writeFileSync(file, text);
    const parsed = vi.spyOn(ParsedLines.prototype, 'add');
    const converted = vi.spyOn(LiveSession.prototype, 'snapshot');
    // The thread runs on the real clock and timers; the host's side needs none of them here (its own timers only space events).
    sessions = new LiveSessions({ emit: () => {}, scheduler: manualScheduler() });
    const { sessionId } = sessions.attach({ path: file, budget: 32_000 });
    await sessions.idle();
    const detail = sessions.detail(sessionId);
    const whole = recordedTruth(importTraceText(text, file).events);
    expect(detail.session.lines).toBe(150);
    expect(detail.session.real).toMatchObject({ steps: whole.steps, input: whole.input, cacheRead: whole.cacheRead, output: whole.output });
    expect(detail.real.map((r) => r.prompt)).toEqual(whole.perStep.map((r) => r.prompt));
    expect(detail.session.shadow?.replayedEvents).toBe(detail.session.events);
    expect(detail.shadow.length).toBeGreaterThan(0);
    // The session's agents are there for the tree, the inspector and the charts, from the thread's replay.
    expect(sessions.generations(sessionId).length).toBeGreaterThan(0);
    // None of it ran here.
    expect(parsed).not.toHaveBeenCalled();
    expect(converted).not.toHaveBeenCalled();
  }, 120_000);

  it('[live-thread] the same spies see the work when a session is followed in the host thread (so the test above can fail)', async () => {
    const file = join(tmp.dir, 'in-thread.jsonl');
    writeFileSync(file, `${readFileSync(claudeTrace, 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, 40).join('\n')}\n`);
    const parsed = vi.spyOn(ParsedLines.prototype, 'add');
    const clock = manualClock(Date.parse('2026-11-30T09:00:00Z'));
    sessions = new LiveSessions({ emit: () => {}, clock, scheduler: manualScheduler(clock), replay: (ev, o) => Promise.resolve({ main: replayTrace(ev, { strategy: o.strategy, budget: o.budget, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 }), subagents: {} }) });
    sessions.attach({ path: file });
    sessions.flush();
    await sessions.idle();
    expect(parsed).toHaveBeenCalled();
    expect(sessions.list()[0]?.lines).toBe(40);
  }, 60_000);

  it('[live-thread] a thread that fails leaves the session in error, saying why, and waiting callers are not left hanging', async () => {
    const file = join(tmp.dir, 'failing.jsonl');
    writeFileSync(file, `${readFileSync(claudeTrace, 'utf8').split('\n')[0]}\n`);
    const broken = join(tmp.dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('the worker module is broken');\n");
    sessions = new LiveSessions({ emit: () => {}, workerUrl: pathToFileURL(broken), scheduler: manualScheduler() });
    const { sessionId } = sessions.attach({ path: file });
    // The thread never answers: the wait ends when it fails.
    await sessions.idle();
    const [s] = sessions.list();
    expect(s?.status).toBe('error');
    expect(s?.message).toMatch(/thread failed \(the worker module is broken\)/);
    expect(sessions.agents().find((a) => a.agentId === sessionId)?.status).toBe('failed');
  }, 60_000);
});
