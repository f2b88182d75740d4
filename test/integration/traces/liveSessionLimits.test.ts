/**
 * An attached session's costs stay bounded (issue 20): each line is parsed once as it arrives, a
 * line over the cap is left out and said so, and a detached session holds nothing.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { importTraceText } from '../../../engine/traces/importTrace';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { LiveSession } from '../../../engine/node/traces/live/LiveSession';
import { recordedTruth } from '../../../engine/traces/replay/recordedTruth';
import { replayTrace } from '../../../engine/traces/replay/replayTrace';
import type { ReplayOptions } from '../../../engine/traces/replay/ReplayTypes';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const claudeTrace = join(tracesDir, 'claude-code-jsonl', 'Eyob-smax__FitCommerce-task-15__sessions__session-1.jsonl');
const have = existsSync(claudeTrace);
if (!have) console.warn(`liveSessionLimits: SKIPPED, the shared Claude Code trace is not at ${tracesDir} (set STRATA_TRACES_DIR)`);

const tmp = tempDir('strata-live-limits-');
afterAll(() => tmp.remove());
let session: LiveSession | undefined;
afterEach(() => {
  session?.stop();
  session = undefined;
  vi.restoreAllMocks();
});

const options: ReplayOptions = { strategy: 'variable', budget: 32_000, provider: 'anthropic', tokenizer: quarterTokenizer, timer: () => 0 };
/** No poll or throttle fires by itself: the tests read and convert with `flush()` (a manual scheduler nobody advances). */
const still = () => manualScheduler();
const lines = () => readFileSync(claudeTrace, 'utf8').split('\n').filter((l) => l.trim() !== '');

describe.skipIf(!have)('[live-incremental] an attached session parses each line once', () => {
  it('[live-incremental] lines read earlier are never parsed again when more arrive; the figures still equal the one-shot import', async () => {
    const all = lines().slice(0, 120);
    const file = join(tmp.dir, 'incremental.jsonl');
    writeFileSync(file, `${all.slice(0, 40).join('\n')}\n`);
    const parse = vi.spyOn(JSON, 'parse');
    session = new LiveSession(file, { replay: (e) => Promise.resolve(replayTrace(e, options)), onUpdate: () => {}, scheduler: still() });
    session.start();
    session.flush();
    for (let k = 40; k < all.length; k += 20) {
      appendFileSync(file, `${all.slice(k, k + 20).join('\n')}\n`);
      session.flush();
      await session.idle();
    }
    const parses = (line: string) => parse.mock.calls.filter((c) => c[0] === line).length;
    expect(all.map(parses)).toEqual(all.map(() => 1));
    const whole = importTraceText(`${all.join('\n')}\n`, file).events;
    expect(session.snapshot().lines).toBe(all.length);
    expect(session.snapshot().real).toEqual(recordedTruth(whole));
    expect(session.snapshot().shadow).toEqual(replayTrace(whole, options));
  }, 60_000);
});

describe.skipIf(!have)('[live-line-cap] a session line over the cap', () => {
  it('[live-line-cap] is left out without being parsed, listed with its line and size and said in the message; the rest imports as the file without it', async () => {
    const all = lines().slice(0, 60);
    const huge = JSON.stringify({ type: 'user', uuid: 'huge', sessionId: 's', message: { role: 'user', content: 'x'.repeat(300_000) } });
    const withHuge = [...all.slice(0, 30), huge, ...all.slice(30)];
    const file = join(tmp.dir, 'capped.jsonl');
    writeFileSync(file, `${withHuge.join('\n')}\n`);
    const parse = vi.spyOn(JSON, 'parse');
    session = new LiveSession(file, { replay: (e) => Promise.resolve(replayTrace(e, options)), onUpdate: () => {}, tail: { maxReadBytes: 64 * 1024, maxLineBytes: 128 * 1024 }, scheduler: still() });
    session.start();
    for (let i = 0; i < 20; i++) session.flush();
    await session.idle();
    const s = session.snapshot();
    expect(parse.mock.calls.some((c) => c[0] === huge)).toBe(false);
    expect(s.skippedLines).toEqual([{ file, line: 31, bytes: huge.length + 1 }]);
    expect(s.status).toBe('following');
    expect(s.message).toContain('One line was left out, longer than the 16 MiB a line may be: line 31 (0.3 MiB).');
    expect(s.lines).toBe(withHuge.length);
    const without = importTraceText(`${[...all.slice(0, 30), '', ...all.slice(30)].join('\n')}\n`, file).events;
    expect(s.real).toEqual(recordedTruth(without));
    expect(s.events).toBe(without.length);
  }, 60_000);
});

describe.skipIf(!have)('[live-release] a stopped session holds nothing', () => {
  it('[live-release] the events and parsed lines of a stopped session can be collected, even while something still refers to the session', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const file = join(tmp.dir, 'release.jsonl');
    writeFileSync(file, `${lines().slice(0, 80).join('\n')}\n`);
    let replayed: WeakRef<readonly TraceEvent[]> | undefined;
    session = new LiveSession(file, {
      replay: (e) => {
        replayed = new WeakRef(e);
        return Promise.resolve(replayTrace(e, options));
      },
      onUpdate: () => {},
      scheduler: still(),
    });
    session.start();
    session.flush();
    await session.idle();
    expect(replayed?.deref()?.length).toBeGreaterThan(0);
    session.stop();
    for (let i = 0; i < 3 && replayed?.deref() !== undefined; i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    expect(replayed?.deref()).toBeUndefined();
  }, 60_000);
});
