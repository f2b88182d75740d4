import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, MemoryEntryDto } from '../../../engine/contract';
import { PURGE_CONFIRMATION } from '../../../engine/contract';
import { RECALL_HEADING } from '../../../engine/memory/recall/renderRecalled';
import { Host } from '../../../engine/host';
import { modelRunDeps } from '../../../engine/host/modelRunDeps';
import { manualScheduler } from '../../../engine/ports/Scheduler';
import { quarterTokenizer } from '../../support/engineFixtures';
import { startAnthropicLoopback, type LoopbackServer } from '../../support/loopback';
import { tempDir } from '../../support/tempDir';

/**
 * Purge through the host, the way the control room reaches it (the `purgeMemory` contract
 * command), on a workspace running a model run against a loopback Anthropic server. The markers
 * enter the catalog by the real flows: the user's task (the primary's `agents.task` and the run's
 * objective item) and a file the primary reads (a tool-result item), each promoted to memory,
 * verified, and recalled into the primary's next prompt.
 */

const KEY = 'sk-ant-loopback-0123456789abcdef';
const TASK_MARKER = 'QUOKKA-TASK-MARK-5521';
const FILE_MARKER = 'WOMBAT-FILE-MARK-8830';
const TIMEOUT = 60_000;

let server: LoopbackServer | undefined;
let tmp: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(async () => {
  host?.close();
  await server?.close();
  tmp?.remove();
  host = undefined;
  server = undefined;
  tmp = undefined;
});

type Call = <T = Record<string, unknown>>(name: CommandName, args: unknown) => Promise<T>;

/** A workspace with a model run started on a task carrying TASK_MARKER, its first turn taken (it read src/parser.ts). */
async function modelWorkspace(): Promise<{ host: Host; call: Call; runId: string; dir: string; catalogPath: string }> {
  server = await startAnthropicLoopback({
    expectedKey: KEY,
    defaultReply: { kind: 'toolCalls', text: 'Reading the parser.', calls: [{ name: 'read_file', arguments: { path: 'src/parser.ts' } }] },
  });
  tmp = tempDir('strata-purge-');
  const dir = join(tmp.dir, 'project');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'parser.ts'), `// ${FILE_MARKER}: the parser splits on commas\nexport function parse(text: string) {\n  return text.split(",");\n}\n`);
  const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
  const catalogPath = join(dir, '.strata', 'catalog.sqlite');
  const h = Host.open({ catalogPath, workspaceName: 'project', version: '1', workspaceDir: dir, scheduler: manualScheduler(), tokenizer: quarterTokenizer, runDeps: modelRunDeps(dir, env) });
  host = h;
  const conn = h.connect(() => {});
  const call: Call = async (name, args) => {
    const r = await conn.call(name, args);
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.value as never;
  };
  const { run } = await call<{ run: { runId: string } }>('startRun', {
    driver: 'model',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    task: `Check the comma parser in src/parser.ts; the report must quote ${TASK_MARKER} verbatim.`,
  });
  await call('pauseRun', { runId: run.runId });
  await call('stepRun', { runId: run.runId });
  return { host: h, call, runId: run.runId, dir, catalogPath };
}

/** Promote an item to memory through the contract and verify it, so the next builds recall it. */
async function promoteAndVerify(call: Call, itemId: string): Promise<MemoryEntryDto> {
  const { entry } = await call<{ entry: MemoryEntryDto }>('promoteToMemory', { itemId });
  return (await call<{ entry: MemoryEntryDto }>('verifyMemory', { id: entry.id, revision: entry.revision })).entry;
}

/** The item a tool call produced that holds `marker` (the read of src/parser.ts). */
const toolItemWith = (h: Host, marker: string) => h.engine.items().find((i) => i.id.startsWith('tool:') && i.content.includes(marker));

/** Rows of the catalog's items table that are recalled copies, removed ones included, read from the file. */
function recallRows(catalogPath: string): { id: string; removed: number }[] {
  const db = new Database(catalogPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT id, removed FROM items WHERE id LIKE 'recall:%' ORDER BY id").all() as { id: string; removed: number }[];
  } finally {
    db.close();
  }
}

/** The forms a text can take in the file: UTF-8, UTF-16 (either order) and JSON-escaped UTF-8. */
function encodings(marker: string): Buffer[] {
  const json = JSON.stringify(marker).slice(1, -1);
  const be = Buffer.from(marker, 'utf16le').swap16();
  return [Buffer.from(marker, 'utf8'), Buffer.from(marker, 'utf16le'), be, Buffer.from(json, 'utf8')];
}

/** Which of catalog.sqlite, -wal and -shm hold `marker` in any of its forms (raw bytes). */
function filesHolding(catalogPath: string, marker: string): string[] {
  const needles = encodings(marker);
  return ['', '-wal', '-shm']
    .map((suffix) => `${catalogPath}${suffix}`)
    .filter((file) => existsSync(file))
    .filter((file) => {
      const bytes = readFileSync(file);
      return needles.some((n) => bytes.includes(n));
    })
    .map((file) => file.slice(file.lastIndexOf('/') + 1));
}

describe('[erasure] purge through the host during a model run', () => {
  it(
    '[erasure-turn] a purge while a turn is in flight wins over the turn\'s held writes: no recalled copy of the purged entry reaches the catalog',
    async () => {
      const { host: h, call, runId, catalogPath } = await modelWorkspace();
      const source = toolItemWith(h, FILE_MARKER);
      expect(source).toBeDefined();
      const entry = await promoteAndVerify(call, source!.id);

      // The next turn recalls the entry (its copy is added to the pool, its catalog write held),
      // then waits for the provider: the purge lands there, before the turn commits.
      const before = server!.requests.length;
      const turn = call('stepRun', { runId });
      await server!.waitForRequests(before + 1, TIMEOUT);
      const copy = h.engine.items().find((i) => i.id.endsWith(`:${entry.id}`) && i.provenance.source === 'recalled_memory');
      expect(copy, 'the turn in flight recalled the entry').toBeDefined();
      expect(recallRows(catalogPath), 'the turn has not committed yet').toEqual([]);
      const report = await call<{ deleted: number }>('purgeMemory', { confirm: PURGE_CONFIRMATION });
      expect(report.deleted).toBe(1);
      await turn;

      expect(h.engine.items().filter((i) => i.id.startsWith('recall:'))).toEqual([]);
      expect(recallRows(catalogPath)).toEqual([]);
      expect(filesHolding(catalogPath, FILE_MARKER)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    '[erasure] getGeneration of an agent that does not build again shows no purged recalled text',
    async () => {
      const { host: h, call, runId } = await modelWorkspace();
      const entry = await promoteAndVerify(call, toolItemWith(h, FILE_MARKER)!.id);
      await call('stepRun', { runId });
      const primary = `${runId}.primary`;
      const shown = await call<{ included: { item: { id: string } }[] }>('getGeneration', { agentId: primary });
      expect(shown.included.some((e) => e.item.id === `recall:${primary}:${entry.id}`), 'the current generation carries the recalled copy').toBe(true);
      expect(JSON.stringify(shown)).toContain(RECALL_HEADING);

      await call('purgeMemory', { confirm: PURGE_CONFIRMATION });
      const generations = await call<{ generations: { number: number }[] }>('listGenerations', { agentId: primary });
      for (const { number } of generations.generations) {
        const g = await call('getGeneration', { agentId: primary, number });
        expect(JSON.stringify(g), `generation ${number}`).not.toContain(RECALL_HEADING);
        expect(JSON.stringify(g), `generation ${number}`).not.toContain(`> ${FILE_MARKER}`);
      }
      const diff = await call('diffGenerations', { agentId: primary, from: 1, to: generations.generations.at(-1)!.number });
      expect(JSON.stringify(diff)).not.toContain(RECALL_HEADING);
    },
    TIMEOUT,
  );
});

/** The ways to a purge the host offers: the contract command after a turn, with states, and during a turn. */
const PATHS = [
  { path: 'purgeMemory after a committed turn', states: undefined, duringTurn: false },
  { path: 'purgeMemory with states ["verified"]', states: ['verified'], duringTurn: false },
  { path: 'purgeMemory while a turn is in flight', states: undefined, duringTurn: true },
  { path: 'purgeMemory during a turn then stopped', states: undefined, duringTurn: true, stop: true },
] as const;

describe('[erasure-everywhere] after every path to a purge, the purged text is in no byte of catalog.sqlite, -wal or -shm', () => {
  it.each(PATHS)(
    '[erasure-everywhere] $path: the markers of the task (agents.task, the objective item) and of a read file are gone, and the report names where they were',
    async (p) => {
      const { states, duringTurn } = p;
      const { host: h, call, runId, catalogPath } = await modelWorkspace();
      await promoteAndVerify(call, `${runId}:objective`);
      await promoteAndVerify(call, toolItemWith(h, FILE_MARKER)!.id);
      await call('stepRun', { runId });
      expect(recallRows(catalogPath).length, 'the recalled copies reached the catalog').toBeGreaterThan(0);
      expect(filesHolding(catalogPath, TASK_MARKER).length).toBeGreaterThan(0);
      expect(filesHolding(catalogPath, FILE_MARKER).length).toBeGreaterThan(0);

      const args = { confirm: PURGE_CONFIRMATION, ...(states ? { states: [...states] } : {}) };
      let report: { deleted: number; scrubbed?: { table: string; rows: number }[]; residual: string };
      if (duringTurn) {
        const before = server!.requests.length;
        const turn = call('stepRun', { runId });
        await server!.waitForRequests(before + 1, TIMEOUT);
        report = await call('purgeMemory', args);
        if ('stop' in p) await call('stopRun', { runId });
        await turn.catch(() => undefined);
      } else {
        report = await call('purgeMemory', args);
      }
      const left = { task: filesHolding(catalogPath, TASK_MARKER), file: filesHolding(catalogPath, FILE_MARKER) };
      console.log(`[erasure-everywhere] ${duringTurn ? ('stop' in p ? 'during a turn then stopped' : 'during a turn') : states ? `states ${states.join(',')}` : 'after a turn'}: scrubbed ${JSON.stringify(report.scrubbed)}; files still holding a marker: ${JSON.stringify(left)}`);
      expect(left).toEqual({ task: [], file: [] });
      expect(report.deleted).toBe(2);
      const tables = (report.scrubbed ?? []).filter((s) => s.rows > 0).map((s) => s.table);
      expect(tables).toEqual(expect.arrayContaining(['items', 'agents']));
      for (const t of tables) expect(report.residual).toContain(t);
      expect(h.catalog.getAgent(`${runId}.primary`)!.task).not.toContain(TASK_MARKER);
      expect(h.catalog.integrityCheck()).toBe('ok');
    },
    TIMEOUT,
  );
});
