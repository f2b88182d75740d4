/**
 * The tail's bounds (issue 20): a line over the cap is read past without being held or parsed and
 * is reported, and a read that fails is an error status, never an exception out of a poll.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { LiveTail, type TailStatus } from '../../../engine/node/traces/live/LiveTail';
import { tempDir } from '../../support/tempDir';

const failing = vi.hoisted(() => ({ reads: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readSync = ((...args: Parameters<typeof fs.readSync>) => {
    if (failing.reads > 0) {
      failing.reads--;
      throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    }
    return fs.readSync(...args);
  }) as typeof fs.readSync;
  return { ...fs, default: { ...fs, readSync }, readSync };
});

const tmp = tempDir('strata-tail-limits-');
afterAll(() => tmp.remove());
let tail: LiveTail | undefined;
afterEach(() => {
  tail?.stop();
  failing.reads = 0;
});

function follow(path: string, options: ConstructorParameters<typeof LiveTail>[2] = {}) {
  const got = { lines: [] as string[], skipped: [] as [number, number][], statuses: [] as [TailStatus, string][], buffered: [] as number[] };
  tail = new LiveTail(
    path,
    {
      lines: (l) => got.lines.push(...l),
      skipped: (line, bytes) => got.skipped.push([line, bytes]),
      status: (s, m) => got.statuses.push([s, m]),
    },
    options,
  );
  return { got, tail };
}

describe('[live-line-cap] a line over the cap', () => {
  it('[live-line-cap] is read past in slices, never held past the cap, handed on empty so later lines keep their numbers, and reported with its line and size', () => {
    const file = join(tmp.dir, 'long.jsonl');
    const long = `{"x":"${'a'.repeat(10_000)}"}`;
    writeFileSync(file, `{"a":1}\n${long.slice(0, 3000)}`);
    const { got, tail } = follow(file, { maxReadBytes: 512, maxLineBytes: 1024 });
    for (let i = 0; i < 40; i++) {
      tail.check();
      got.buffered.push(tail.buffered);
    }
    appendFileSync(file, `${long.slice(3000)}\n{"b":2}\n`);
    for (let i = 0; i < 40; i++) {
      tail.check();
      got.buffered.push(tail.buffered);
    }
    expect(got.lines).toEqual(['{"a":1}', '', '{"b":2}']);
    expect(got.skipped).toEqual([[2, long.length + 1]]);
    expect(Math.max(...got.buffered)).toBeLessThanOrEqual(1024);
    expect(tail.position).toBe(8 + long.length + 1 + 8);
    // A line right at the cap is still handed on whole.
    const atCap = `{"y":"${'b'.repeat(1024 - 8)}"}`;
    expect(Buffer.byteLength(atCap)).toBe(1024);
    appendFileSync(file, `${atCap}\n`);
    for (let i = 0; i < 5; i++) tail.check();
    expect(got.lines.at(-1)).toBe(atCap);
    expect(got.skipped).toHaveLength(1);
  });
});

describe('[live-tail-errors] a read that fails', () => {
  it('[live-tail-errors] a failing read in check() is an error status naming the file, not a throw; the next check reads on from where it was', () => {
    const file = join(tmp.dir, 'eio.jsonl');
    writeFileSync(file, '{"a":1}\n');
    const { got, tail } = follow(file);
    tail.check();
    appendFileSync(file, '{"b":2}\n');
    failing.reads = 1;
    expect(() => tail.check()).not.toThrow();
    expect(got.statuses.at(-1)).toEqual(['error', `Cannot read ${file}: EIO: i/o error, read; trying again.`]);
    tail.check();
    expect(got.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(got.statuses.at(-1)?.[0]).toBe('following');
  });

  it('[live-tail-errors] the poll keeps going through failing reads: nothing thrown out of it, and lines arrive once reads work again', () => {
    const file = join(tmp.dir, 'eio-poll.jsonl');
    writeFileSync(file, '{"a":1}\n');
    const scheduler = manualScheduler();
    failing.reads = 3;
    const { got, tail } = follow(file, { pollMs: 10, scheduler });
    // The first check, at start, and the next two polls fail; the poll keeps running through them.
    expect(() => tail.start()).not.toThrow();
    for (let i = 0; i < 2; i++) {
      expect(() => scheduler.advance(10)).not.toThrow();
      expect(got.lines).toEqual([]);
      expect(scheduler.active()).toBe(1);
    }
    expect(got.statuses.map(([s]) => s)).toEqual(['error']);
    expect(failing.reads).toBe(0);
    scheduler.advance(10);
    expect(got.lines).toEqual(['{"a":1}']);
    appendFileSync(file, '{"b":2}\n');
    scheduler.advance(10);
    expect(got.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(got.statuses.at(-1)?.[0]).toBe('following');
  });
});
