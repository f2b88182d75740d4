/**
 * An attached session's statuses and announcements over time, on a manual clock and scheduler:
 * the host thread follows the session (`replay`), so its tail, throttle, status checks and the
 * spacing of `session.updated` all run on the test's time, never on how fast the machine is.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDto, StrataEvent } from '../../../engine/contract';
import { LiveSessions, SESSION_ACTIVE_MS, SESSION_EVENT_MS, STATUS_CHECK_MS } from '../../../engine/host/LiveSessions';
import { SESSION_SETTLED_MS } from '../../../engine/traces/turnEnded';
import { manualClock } from '../../../engine/ports/Clock';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import { quarterTokenizer } from '../../support/engineFixtures';
import { madeUpSession } from '../../support/liveSessionFixture';
import { tempDir } from '../../support/tempDir';

let tmp: ReturnType<typeof tempDir>;
let sessions: LiveSessions | undefined;
beforeEach(() => {
  tmp = tempDir('strata-live-status-');
});
afterEach(() => {
  sessions?.close();
  tmp.remove();
});

/** The tail's poll (the session's default): lines appended are read at the next multiple of it after the attach. */
const POLL_MS = 250;
/** The conversion throttle (the session's default). */
const THROTTLE_MS = 100;

/** A host-thread `LiveSessions` on a manual clock and scheduler, recording each event with the time it went out. */
function attached(file: string, timings: { pollMs?: number; throttleMs?: number } = {}) {
  const clock = manualClock(Date.parse('2026-11-30T09:10:00Z'));
  const scheduler = manualScheduler(clock);
  const events: { at: number; event: StrataEvent }[] = [];
  sessions = new LiveSessions({
    emit: (event) => events.push({ at: clock.now(), event }),
    replay: (ev, o) => Promise.resolve({ main: replayTrace(ev, { strategy: o.strategy, budget: o.budget, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 }), subagents: {} }),
    clock,
    scheduler,
    ...timings,
  });
  const live = sessions;
  const attachedAt = clock.now();
  const { sessionId } = live.attach({ path: file, budget: 4_000 });
  return {
    clock,
    scheduler,
    attachedAt,
    events,
    main: () => live.agents().find((a) => a.agentId === sessionId) as AgentDto,
    announced: () => events.flatMap(({ event: e }) => (e.name === 'agent.updated' && e.payload.agent.agentId === sessionId ? [e.payload.agent] : [])),
    /** Moves time on by `ms`, then lets the replays started on the way settle (they resolve on the microtask queue). */
    async run(ms: number) {
      scheduler.advance(ms);
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('[live-agents] session agent statuses over time', () => {
  it('[live-agents] a session that stops writing turns from running to waiting exactly SESSION_ACTIVE_MS after its last line, announced by the next status check without a new line; a deleted file is failed', async () => {
    const file = join(tmp.dir, 'session.jsonl');
    writeFileSync(file, '');
    const t = attached(file);
    // Stopped inside a turn (a tool's result is the last line): the agent may be thinking, never done.
    appendFileSync(file, `${madeUpSession(3).slice(0, -1).join('\n')}\n`);
    // The first poll reads the lines, the throttle converts them, the replay follows.
    t.scheduler.advance(POLL_MS);
    const lastLineAt = t.attachedAt + POLL_MS;
    await t.run(THROTTLE_MS);
    await t.run(SESSION_EVENT_MS);
    expect(t.main().status).toBe('running');
    expect(t.announced().at(-1)?.status).toBe('running');
    expect(t.main().recorded?.tokens).toBeGreaterThan(0);

    // Running up to the last millisecond of SESSION_ACTIVE_MS, waiting from then on.
    await t.run(lastLineAt + SESSION_ACTIVE_MS - 1 - t.clock.now());
    expect(t.main().status).toBe('running');
    await t.run(1);
    expect(t.main().status).toBe('waiting');
    // The tree hears it from the first status check after that (every STATUS_CHECK_MS since the attach), not before.
    const check = t.attachedAt + Math.ceil((lastLineAt + SESSION_ACTIVE_MS - t.attachedAt) / STATUS_CHECK_MS) * STATUS_CHECK_MS;
    await t.run(check - 1 - t.clock.now());
    expect(t.announced().at(-1)?.status).toBe('running');
    await t.run(1);
    expect(t.announced().at(-1)?.status).toBe('waiting');
    const count = t.announced().length;
    // Nothing changed since: no more announcements of the same figures, however long it stays so.
    await t.run(SESSION_ACTIVE_MS);
    expect(t.announced()).toHaveLength(count);

    tmp.remove();
    t.scheduler.advance(POLL_MS);
    await t.run(THROTTLE_MS + SESSION_EVENT_MS);
    expect(t.main().status).toBe('failed');
    expect(t.announced().at(-1)?.status).toBe('failed');
  });
});

describe('[live-done] a finished session is done', () => {
  it('[live-done] a session whose last turn ended is done SESSION_SETTLED_MS after its last line, announced by the next status check; a new line opens it again', async () => {
    const file = join(tmp.dir, 'finished.jsonl');
    const lines = madeUpSession(3);
    // Ends with the closing answer: an assistant message with no tool call.
    writeFileSync(file, '');
    const t = attached(file);
    appendFileSync(file, `${lines.join('\n')}\n`);
    t.scheduler.advance(POLL_MS);
    const lastLineAt = t.attachedAt + POLL_MS;
    await t.run(THROTTLE_MS);
    await t.run(SESSION_EVENT_MS);
    expect(t.main().status).toBe('running');
    await t.run(lastLineAt + SESSION_SETTLED_MS - 1 - t.clock.now());
    expect(t.main().status).toBe('running');
    await t.run(1);
    expect(t.main().status).toBe('done');
    const check = t.attachedAt + Math.ceil((lastLineAt + SESSION_SETTLED_MS - t.attachedAt) / STATUS_CHECK_MS) * STATUS_CHECK_MS;
    await t.run(check - t.clock.now());
    expect(t.announced().at(-1)?.status).toBe('done');
    // It stays done (never waiting) however long the file stays quiet.
    await t.run(2 * SESSION_ACTIVE_MS);
    expect(t.main().status).toBe('done');

    // The user asks again: a new turn is under way.
    appendFileSync(file, `${JSON.stringify({ type: 'user', timestamp: '2026-11-30T09:30:00.000Z', message: { role: 'user', content: 'and add a test' } })}\n`);
    t.scheduler.advance(POLL_MS);
    await t.run(THROTTLE_MS + SESSION_EVENT_MS);
    expect(t.main().status).toBe('running');
    expect(t.announced().at(-1)?.status).toBe('running');
  });
});

describe('[live-attach] session.updated spacing', () => {
  it('[live-attach] snapshots arriving every 10 ms go out as session.updated at most every SESSION_EVENT_MS, the first at once and the last one always, each with agent.updated for what changed', async () => {
    const file = join(tmp.dir, 'busy.jsonl');
    writeFileSync(file, '');
    // A poll and throttle of 10 ms (the session's own options): a new snapshot every 10 ms while lines arrive.
    const t = attached(file, { pollMs: 10, throttleMs: 10 });
    const lines = madeUpSession(20);
    const revisions: number[] = [];
    for (const line of lines) {
      appendFileSync(file, `${line}\n`);
      // The poll reads the line, the throttle converts it 10 ms later.
      await t.run(10);
      revisions.push(sessions!.list()[0]!.revision);
    }
    // The last line's conversion, then the spacing: the last snapshot goes out too.
    await t.run(10);
    await t.run(SESSION_EVENT_MS);
    const updates = t.events.filter((e) => e.event.name === 'session.updated');
    const times = updates.map((u) => u.at);
    // Many more snapshots than announcements, each announcement SESSION_EVENT_MS after the one before while snapshots keep coming.
    expect(revisions.at(-1)!).toBeGreaterThan(3 * updates.length);
    expect(times.slice(1).map((at, i) => at - times[i]!)).toEqual(times.slice(1).map(() => SESSION_EVENT_MS));
    // The first snapshot (the file's status, converted one throttle after the attach) went out at once.
    expect(times[0]).toBe(t.attachedAt + 10);
    // The last one carries the session's last revision and its figures.
    const last = updates.at(-1)!.event;
    expect(last.name === 'session.updated' && last.payload.session).toEqual(sessions!.list()[0]);
    // Each agent.updated went out with a session.updated, at the same time.
    const agentTimes = t.events.filter((e) => e.event.name === 'agent.updated' && e.event.payload.agent.agentId === t.main().agentId).map((e) => e.at);
    expect(agentTimes.length).toBeGreaterThan(1);
    expect(agentTimes.every((at) => times.includes(at))).toBe(true);
  });
});
