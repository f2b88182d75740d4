import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { LiveTail, type TailStatus } from '../../../engine/node/traces/live/LiveTail';
import { importTraceText } from '../../../engine/traces/importTrace';
import { tempDir } from '../../support/tempDir';

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const codexTrace = join(tracesDir, 'codex-rollout-jsonl', 'eaglepointAiLabs__TASK-w1t9__sessions__session-1.jsonl');
const haveTrace = existsSync(codexTrace);
if (!haveTrace) console.warn(`liveTail: convergence test SKIPPED, ${codexTrace} does not exist (set STRATA_TRACES_DIR)`);

const tmp = tempDir('strata-tail-');
afterAll(() => tmp.remove());
let tail: LiveTail | undefined;
afterEach(() => tail?.stop());

/** A tail recording everything it hands on; `check()` is called by the test (no timers needed). */
function follow(path: string) {
  const got = { lines: [] as string[], resets: [] as string[], statuses: [] as TailStatus[], messages: [] as string[] };
  tail = new LiveTail(path, {
    lines: (l) => got.lines.push(...l),
    reset: (why) => {
      got.resets.push(why);
      got.lines = [];
    },
    status: (s, m) => {
      got.statuses.push(s);
      got.messages.push(m);
    },
  });
  return { got, tail };
}

describe('[live-tail] following a growing session file', () => {
  it('[live-tail] hands on complete lines only; a half-written line waits for its newline', () => {
    const file = join(tmp.dir, 'half.jsonl');
    writeFileSync(file, '{"a":1}\n{"b":');
    const { got, tail } = follow(file);
    tail.check();
    expect(got.lines).toEqual(['{"a":1}']);
    expect(tail.position).toBe(8);
    appendFileSync(file, '2}\n{"c":3}\r\n');
    tail.check();
    expect(got.lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(got.statuses).toEqual(['following']);
  });

  it('[live-tail] a character split between two writes is decoded whole', () => {
    const file = join(tmp.dir, 'utf8.jsonl');
    const line = Buffer.from('{"text":"naïve — 日本"}\n');
    writeFileSync(file, line.subarray(0, 12));
    const { got, tail } = follow(file);
    tail.check();
    appendFileSync(file, line.subarray(12));
    tail.check();
    expect(got.lines).toEqual(['{"text":"naïve — 日本"}']);
  });

  it('[live-tail] truncation and rotation start over and say so; a deleted file is reported and waited for', () => {
    const file = join(tmp.dir, 'moving.jsonl');
    writeFileSync(file, 'one\ntwo\n');
    const { got, tail } = follow(file);
    tail.check();
    truncateSync(file, 0);
    appendFileSync(file, 'three\n');
    tail.check();
    expect(got.resets).toEqual(['truncated']);
    expect(got.lines).toEqual(['three']);

    // Rewritten and grown past where reading stopped: the bytes before that point changed.
    writeFileSync(file, 'REWRITTEN line\nand more\n');
    tail.check();
    expect(got.resets).toEqual(['truncated', 'truncated']);
    expect(got.lines).toEqual(['REWRITTEN line', 'and more']);

    renameSync(file, `${file}.1`);
    writeFileSync(file, 'fresh\n');
    tail.check();
    expect(got.resets).toEqual(['truncated', 'truncated', 'rotated']);
    expect(got.lines).toEqual(['fresh']);

    rmSync(file);
    tail.check();
    expect(got.statuses.at(-1)).toBe('deleted');
    expect(got.messages.at(-1)).toContain('was deleted');
    writeFileSync(file, 'back\n');
    tail.check();
    expect(got.lines.at(-1)).toBe('back');
    expect(got.statuses.at(-1)).toBe('following');
  });

  it('[live-tail] a path that does not exist yet is waited for; a folder is an error, not a crash', () => {
    const file = join(tmp.dir, 'later.jsonl');
    const { got, tail } = follow(file);
    tail.check();
    expect(got.statuses).toEqual(['waiting']);
    writeFileSync(file, 'x\n');
    tail.check();
    expect(got.lines).toEqual(['x']);
    const dir = follow(tmp.dir);
    dir.tail.check();
    expect(dir.got.statuses).toEqual(['error']);
    expect(dir.got.messages[0]).toContain('is not a file');
  });

  it('[live-tail] never writes to the file it follows', () => {
    const file = join(tmp.dir, 'readonly.jsonl');
    writeFileSync(file, 'a\nb\n');
    const before = statSync(file);
    const { tail } = follow(file);
    tail.check();
    tail.check();
    const after = statSync(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n');
  });

  it.skipIf(!haveTrace)('[live-tail] a real Codex session written in uneven slices converges to the one-shot import of the whole file', () => {
    const source = codexTrace;
    const text = readFileSync(source, 'utf8');
    const file = join(tmp.dir, 'rollout-live.jsonl');
    writeFileSync(file, '');
    const got: string[] = [];
    const scheduler = manualScheduler();
    tail = new LiveTail(file, { lines: (l) => got.push(...l) }, { pollMs: 5, maxReadBytes: 64 * 1024, scheduler });
    tail.start();
    // Slices that cut lines (and JSON) in the middle, some a few bytes, some hundreds of KiB; the poll reads between them.
    const bytes = Buffer.from(text);
    let at = 0;
    let n = 0;
    const reads: number[] = [];
    while (at < bytes.length) {
      const size = [7, 4093, 131_072, 1, 65_537][n++ % 5]!;
      appendFileSync(file, bytes.subarray(at, at + size));
      at += size;
      if (n % 5 === 0) {
        const before = tail.position;
        scheduler.advance(5);
        reads.push(tail.position - before);
      }
    }
    scheduler.advance(5);
    expect(tail.position).toBe(bytes.length);
    // Live: several polls read parts of the file, and one poll took more than a 64 KiB slice (the rest on turns of their own).
    expect(reads.filter((r) => r > 0).length).toBeGreaterThan(3);
    expect(Math.max(...reads)).toBeGreaterThan(64 * 1024);
    const live = importTraceText(`${got.join('\n')}\n`, file);
    const whole = importTraceText(text, file);
    expect(live.events).toEqual(whole.events);
    expect(live.events.length).toBeGreaterThan(100);
  });
});
