import { appendFileSync, existsSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { importTraceText } from '../../../engine/traces/importTrace';
import { type Clock, manualClock } from '../../../engine/ports/Clock';
import { manualScheduler, type ManualScheduler } from '../../../engine/ports/Scheduler';
import { LiveSession, type LiveSessionSnapshot } from '../../../engine/node/traces/live/LiveSession';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import type { ReplayOptions } from '../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { quarterTokenizer } from '../../support/engineFixtures';
import { madeUpSession } from '../../support/liveSessionFixture';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const claudeTrace = join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl');
const codexTrace = join(tracesDir, 'codex-rollout-jsonl', 'eaglepointAiLabs__TASK-w1t9__sessions__session-1.jsonl');
const have = existsSync(claudeTrace) && existsSync(codexTrace);
if (!have) console.warn(`liveSession: SKIPPED, the shared Claude Code and Codex traces are not at ${tracesDir} (set STRATA_TRACES_DIR)`);

const tmp = tempDir('strata-live-');
afterAll(() => tmp.remove());
let session: LiveSession | undefined;
/** The session's timers: they fire only when a test moves this scheduler's time on. */
let scheduler: ManualScheduler;
afterEach(() => session?.stop());

/** When the attached sessions start (their manual clock, which their scheduler moves). */
const T0 = Date.parse('2026-11-30T09:15:42Z');
/** The attached sessions' poll and throttle (scheduler time). */
const POLL_MS = 10;
const THROTTLE_MS = 20;

/** The shadow's options: deterministic (a fixed timer), as the host would run them but in-process. */
const options: ReplayOptions = { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 };
let replays = 0;
const replay = (events: readonly TraceEvent[]) => {
  replays++;
  return Promise.resolve(replayTrace(events, options));
};

/**
 * Append `bytes` in uneven slices that cut lines and characters; after every fourth, a poll reads
 * what is there and the throttle converts it, and the replay that starts is let finish.
 */
async function writeSlowly(file: string, bytes: Buffer): Promise<void> {
  let at = 0;
  let n = 0;
  while (at < bytes.length) {
    const size = [1_021, 65_536, 7, 250_000, 33][n++ % 5]!;
    appendFileSync(file, bytes.subarray(at, at + size));
    at += size;
    if (n % 4 === 0) {
      scheduler.advance(POLL_MS + THROTTLE_MS);
      await new Promise((r) => setImmediate(r));
    }
  }
}

function attach(file: string) {
  const updates: LiveSessionSnapshot[] = [];
  const clock = manualClock(T0);
  scheduler = manualScheduler(clock);
  session = new LiveSession(file, { replay, onUpdate: (s) => updates.push(s), throttleMs: THROTTLE_MS, tail: { pollMs: POLL_MS, maxReadBytes: 128 * 1024 }, clock, scheduler });
  session.start();
  return { session, updates };
}

/** The figures a one-shot import of the whole file gives. */
function oneShot(text: string, file: string) {
  const events = importTraceText(text, file).events;
  return { events, real: recordedTruth(events), shadow: replayTrace(events, options) };
}

describe.skipIf(!have)('[live-attach] an attached session converges to the one-shot import', () => {
  it('[live-attach] a Claude Code session written in slices, half lines included: real and counterfactual figures equal the whole file\'s', async () => {
    const text = readFileSync(claudeTrace, 'utf8');
    const file = join(tmp.dir, 'claude-live.jsonl');
    writeFileSync(file, '');
    const { session, updates } = attach(file);
    await writeSlowly(file, Buffer.from(text));
    session.flush();
    await session.idle();
    const final = session.snapshot();
    const whole = oneShot(text, file);
    expect(final.status).toBe('following');
    expect(final.events).toBe(whole.events.length);
    expect(final.real).toEqual(whole.real);
    expect(final.real.callsWithUsage).toBeGreaterThan(20);
    expect(final.shadow).toEqual(whole.shadow);
    expect(final.shadowEvents).toBe(whole.events.length);
    // It was live: earlier snapshots showed fewer steps than the end.
    expect(updates.some((u) => u.real.steps > 0 && u.real.steps < whole.real.steps)).toBe(true);
  }, 60_000);

  it('[live-attach] a truncation mid-line starts over; the file written on from there converges to the whole file\'s figures', async () => {
    const text = readFileSync(claudeTrace, 'utf8');
    const bytes = Buffer.from(text);
    const file = join(tmp.dir, 'truncated.jsonl');
    writeFileSync(file, bytes.subarray(0, 150_000));
    const { session } = attach(file);
    session.flush();
    await session.idle();
    const before = session.snapshot().real.steps;
    expect(before).toBeGreaterThan(0);
    // The agent's file is cut back to 40,000 bytes (inside a line), then written on to its end.
    truncateSync(file, 40_000);
    session.flush();
    await session.idle();
    expect(session.snapshot().real.steps).toBeLessThan(before);
    // No time went by since the attach (nothing waited for the poll or the throttle): the reset is stamped with the session's clock.
    expect(session.snapshot().message).toMatch(/started over once \(last: truncated at 09:15:42 UTC\)/);
    await writeSlowly(file, bytes.subarray(40_000));
    session.flush();
    await session.idle();
    const whole = oneShot(text, file);
    expect(session.snapshot().status).toBe('following');
    expect(session.snapshot().real).toEqual(whole.real);
    expect(session.snapshot().shadow).toEqual(whole.shadow);
  }, 60_000);

  it('[live-attach] a rotation to another session starts over and converges to the new file; a malformed line is an error status', async () => {
    const file = join(tmp.dir, 'rotating.jsonl');
    const claude = readFileSync(claudeTrace, 'utf8');
    writeFileSync(file, claude.slice(0, claude.indexOf('\n', 200_000) + 1));
    const { session } = attach(file);
    session.flush();
    await session.idle();
    expect(session.snapshot().real.steps).toBeGreaterThan(0);

    const codex = readFileSync(codexTrace, 'utf8');
    renameSync(file, `${file}.1`);
    writeFileSync(file, '');
    await writeSlowly(file, Buffer.from(codex));
    session.flush();
    await session.idle();
    const whole = oneShot(codex, file);
    expect(session.snapshot().real).toEqual(whole.real);
    expect(session.snapshot().shadow).toEqual(whole.shadow);

    const replaysBefore = replays;
    appendFileSync(file, '{"timestamp": "2026-11-30T00:00:00Z", "type": \n');
    session.flush();
    await session.idle();
    const broken = session.snapshot();
    // The events did not change, so the shadow is not replayed again.
    expect(replays).toBe(replaysBefore);
    expect(broken.shadow).toEqual(whole.shadow);
    expect(broken.status).toBe('error');
    expect(broken.message).toContain(file);
    // The last good figures stay.
    expect(broken.real).toEqual(whole.real);
  }, 60_000);
});

describe('[live-incremental] the conversion throttle', () => {
  /** A clock that moves `step` ms every time it is read: each conversion, timed by two readings, takes `step` ms. */
  const slowClock = (step: number): Clock => {
    let t = 0;
    return { now: () => (t += step) };
  };

  it.each([
    { took: 'no time', conversionMs: 0, wait: 100 },
    { took: '20 ms', conversionMs: 20, wait: 100 },
    { took: '40 ms', conversionMs: 40, wait: 160 },
    { took: '100 ms', conversionMs: 100, wait: 400 },
  ])('[live-incremental] [live-attach] after a conversion that took $took, lines that arrive are converted $wait ms after the first is read (the 100 ms throttle or four times the last conversion), once for all of them', async ({ conversionMs, wait }) => {
    const lines = madeUpSession(3);
    const file = join(tmp.dir, `throttle-${conversionMs}.jsonl`);
    writeFileSync(file, `${lines[0]}\n`);
    // The scheduler keeps its own time (`time`); the session's clock only times its conversions.
    const time = manualClock(0);
    scheduler = manualScheduler(time);
    const converted: { at: number; lines: number }[] = [];
    session = new LiveSession(file, {
      replay,
      onUpdate: (s) => {
        if (converted.at(-1)?.lines !== s.lines) converted.push({ at: time.now(), lines: s.lines });
      },
      clock: slowClock(conversionMs),
      scheduler,
      tail: { pollMs: 10 },
    });
    // The first line is read at the start and converted after the default throttle (no conversion timed yet).
    session.start();
    scheduler.advance(99);
    expect(converted).toEqual([]);
    scheduler.advance(1);
    expect(converted).toEqual([{ at: 100, lines: 1 }]);
    await new Promise((r) => setImmediate(r));
    // Two lines, read by the polls at 110 and 120: one conversion for both, `wait` after the first was read.
    appendFileSync(file, `${lines[1]}\n`);
    scheduler.advance(10);
    appendFileSync(file, `${lines[2]}\n`);
    scheduler.advance(110 + wait - 1 - time.now());
    expect(converted).toEqual([{ at: 100, lines: 1 }]);
    scheduler.advance(1);
    expect(converted).toEqual([
      { at: 100, lines: 1 },
      { at: 110 + wait, lines: 3 },
    ]);
  });
});
