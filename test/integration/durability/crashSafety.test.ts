import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { partitionId } from '../../../engine/memory/partitionId';
import { MemoryStore } from '../../../engine/node/memoryStore/MemoryStore';
import { systemClock } from '../../../engine/ports/Clock';
import { CRASH_AGENT, crashMemoryId, crashTurnItemId, crashTurnLog, MEMORY_EVERY } from '../../support/crashTurns';
import { seeded } from '../../support/longLivedScenario';
import { tempDir } from '../../support/tempDir';

const CHILD = join(import.meta.dirname, '..', '..', 'support', 'crashChild.ts');
const KILLS = 50;
const SEED = 20261129;

/** One writer process and the complete lines it printed. */
interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  /** Resolves with the first line starting with `prefix` (or undefined if the writer ended first). */
  waitFor(prefix: string): Promise<string | undefined>;
  closed: Promise<void>;
}

function startWriter(catalogPath: string): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, catalogPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (l: string | undefined) => void }[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.filter((x) => l.startsWith(x.prefix))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const closed = new Promise<void>((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) w.resolve(undefined);
      // Only our SIGKILL may end a writer; anything else is a failure of the writer itself.
      if (signal !== 'SIGKILL') lines.push(`!exit code=${code} signal=${signal} ${stderr.slice(-2000)}`);
      resolve();
    });
  });
  return {
    child,
    lines,
    closed,
    waitFor: (prefix) => {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ prefix, resolve }));
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Check {
  openMs: number;
  committedTurns: number;
}

/**
 * Open the catalog the way Strata does after a crash (taking over the dead writer's lock), then
 * check the file: integrity, every promised turn and entry present, and each turn all-or-nothing.
 */
function checkAfterKill(catalogPath: string, promisedTurns: number, promisedMemory: ReadonlySet<string>): Check {
  const t = performance.now();
  const catalog = Catalog.open(catalogPath);
  let reader: Database.Database | undefined;
  try {
    const memory = MemoryStore.open(catalog, { partition: partitionId('crash-safety'), clock: systemClock });
    const openMs = performance.now() - t;
    expect(catalog.integrityCheck()).toBe('ok');

    const committed = catalog.getAgent(CRASH_AGENT)?.revision ?? 0;
    expect(committed).toBeGreaterThanOrEqual(promisedTurns);

    reader = new Database(catalogPath, { readonly: true, fileMustExist: true });
    const logs = (reader.prepare('SELECT message FROM events WHERE agent_id = ? ORDER BY seq').all(CRASH_AGENT) as { message: string }[]).map((r) => r.message);
    const items = (reader.prepare("SELECT id FROM items WHERE id LIKE 'turn:%'").all() as { id: string }[]).map((r) => r.id);
    // Every committed turn exactly once (a turn lost to a kill is retried under the same number)
    // and nothing of a turn that did not commit.
    const turns = Array.from({ length: committed }, (_, i) => i + 1);
    expect(logs).toEqual(turns.map(crashTurnLog));
    expect(items.sort()).toEqual(turns.map(crashTurnItemId).sort());

    const entries = memory.list();
    expect(entries.map((e) => e.id).sort()).toEqual(turns.filter((x) => x % MEMORY_EVERY === 0).map(crashMemoryId).sort());
    for (const id of promisedMemory) expect(memory.get(id)?.state, id).toBe('candidate');
    return { openMs, committedTurns: committed };
  } finally {
    reader?.close();
    catalog.close();
  }
}

// About 30 s on an idle 2-core machine (50 writer processes, each loading the catalog through tsx);
// the limit is ten times that, so a second suite on the same cores cannot time it out.
describe('catalog durability under SIGKILL', () => {
  const tmp = tempDir('strata-crash-');
  const spare: Writer[] = [];
  afterAll(async () => {
    for (const w of spare.splice(0)) {
      w.child.kill('SIGKILL');
      await w.closed;
    }
    tmp.remove();
  });

  it(`[crash-safety] ${KILLS} kills at random moments lose no committed turn or memory entry and never corrupt the file`, { timeout: 300_000 }, async () => {
    const catalogPath = join(tmp.dir, 'catalog.sqlite');
    const rnd = seeded(SEED);
    const promisedMemory = new Set<string>();
    let promisedTurns = 0;
    let maxOpenMs = 0;
    let duringOpen = 0;
    let committed = 0;
    const started = performance.now();

    // Writers load their modules (most of a writer's start-up) ahead of time, two at a time.
    spare.push(startWriter(catalogPath), startWriter(catalogPath));
    for (let kill = 0; kill < KILLS; kill++) {
      const w = spare.shift() as Writer;
      spare.push(startWriter(catalogPath));
      expect(await w.waitFor('loaded'), w.lines.join('\n')).toBe('loaded');
      w.child.stdin.write('go\n');
      const delay = 5 + Math.floor(rnd() * 76);
      // Half the kills count from "go" (they can land in open, migration, VACUUM or checkpoint),
      // half from "ready" (they land in the turn loop).
      if (kill % 2 === 0) await w.waitFor('ready');
      await sleep(delay);
      w.child.kill('SIGKILL');
      await w.closed;
      expect(w.lines.filter((l) => l.startsWith('!')), w.lines.join('\n')).toEqual([]);
      if (!w.lines.some((l) => l.startsWith('ready'))) duringOpen++;

      for (const l of w.lines) {
        if (l.startsWith('turn ')) promisedTurns = Math.max(promisedTurns, Number(l.slice(5)));
        if (l.startsWith('mem ')) promisedMemory.add(l.slice(4));
      }
      const check = checkAfterKill(catalogPath, promisedTurns, promisedMemory);
      maxOpenMs = Math.max(maxOpenMs, check.openMs);
      committed = check.committedTurns;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `[crash-safety] kills ${KILLS} (${duringOpen} before the writer was ready), turns confirmed ${promisedTurns} (committed ${committed}), ` +
        `memory entries confirmed ${promisedMemory.size}, max open time ${maxOpenMs.toFixed(1)} ms, ${seconds} s`,
    );
    expect(promisedTurns).toBeGreaterThan(0);
    expect(promisedMemory.size).toBeGreaterThan(0);
  });
});
