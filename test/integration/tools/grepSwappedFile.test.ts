/**
 * grep reads the file it checked (`[grep-reads-checked]`, issue 20): a file replaced by a FIFO between the
 * walk and the read is opened without blocking and skipped, never read into a hang. The swap is
 * made at the moment grep first touches the file (its check or its open), through a wrapped
 * `node:fs/promises`, so the race is hit every time.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeWorkspace, type Fixture } from './workspaceFixture';

const swap = vi.hoisted(() => ({ path: '', done: false }));
const toFifo = (path: string) => {
  swap.done = true;
  rmSync(path);
  execFileSync('mkfifo', [path]);
};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    stat: async (...args: Parameters<typeof real.stat>) => {
      const st = await real.stat(...args);
      if (!swap.done && String(args[0]) === swap.path) toFifo(swap.path);
      return st;
    },
    open: async (...args: Parameters<typeof real.open>) => {
      if (!swap.done && String(args[0]) === swap.path) toFifo(swap.path);
      return real.open(...args);
    },
  };
});

const { createWorkspaceTools } = await import('../../../engine/node/tools/registry');

let fx: Fixture | undefined;
afterEach(() => {
  fx?.remove();
  fx = undefined;
});

describe('[grep-reads-checked] a file swapped for a FIFO while grep runs', () => {
  it('[grep-reads-checked] is skipped without blocking; the other files are still searched', async () => {
    fx = makeWorkspace({ 'a.txt': 'needle in a\n', 'b.txt': 'needle in b\n' });
    swap.path = join(fx.root, 'b.txt');
    swap.done = false;
    const tools = createWorkspaceTools(fx.root);
    const outcome = await Promise.race([
      tools.call({ id: 'g1', name: 'grep', arguments: JSON.stringify({ pattern: 'needle' }) }),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000).unref()),
    ]);
    expect(swap.done).toBe(true);
    expect(outcome).not.toBe('hung');
    if (outcome === 'hung') return;
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toContain('a.txt:1: needle in a');
    expect(outcome.content).not.toContain('b.txt');
  }, 90_000);
});
