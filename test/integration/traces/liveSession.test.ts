import { appendFileSync, existsSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { importTraceText } from '../../../engine/traces/importTrace';
import { LiveSession, type LiveSessionSnapshot } from '../../../engine/traces/live/LiveSession';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import type { ReplayOptions } from '../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const claudeTrace = join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl');
const codexTrace = join(tracesDir, 'codex-rollout-jsonl', 'eaglepointAiLabs__TASK-w1t9__sessions__session-1.jsonl');
const have = existsSync(claudeTrace) && existsSync(codexTrace);
if (!have) console.warn(`liveSession: SKIPPED, the shared Claude Code and Codex traces are not at ${tracesDir} (set STRATA_TRACES_DIR)`);

const tmp = tempDir('strata-live-');
afterAll(() => tmp.remove());
let session: LiveSession | undefined;
afterEach(() => session?.stop());

/** The shadow's options: deterministic (a fixed timer), as the host would run them but in-process. */
const options: ReplayOptions = { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 };
let replays = 0;
const replay = (events: readonly TraceEvent[]) => {
  replays++;
  return Promise.resolve(replayTrace(events, options));
};

/** Append `bytes` in uneven slices that cut lines and characters, with pauses the tail and throttle see. */
async function writeSlowly(file: string, bytes: Buffer): Promise<void> {
  let at = 0;
  let n = 0;
  while (at < bytes.length) {
    const size = [1_021, 65_536, 7, 250_000, 33][n++ % 5]!;
    appendFileSync(file, bytes.subarray(at, at + size));
    at += size;
    if (n % 4 === 0) await new Promise((r) => setTimeout(r, 15));
  }
}

function attach(file: string) {
  const updates: LiveSessionSnapshot[] = [];
  session = new LiveSession(file, { replay, onUpdate: (s) => updates.push(s), throttleMs: 20, tail: { pollMs: 10, maxReadBytes: 128 * 1024 } });
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
    expect(session.snapshot().message).toMatch(/started over once \(last: truncated at \d\d:\d\d:\d\d UTC\)/);
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
