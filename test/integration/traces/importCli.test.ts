/**
 * `strata import` as a process (the CLI from source through test/support/runStrataCli.ts): exit
 * codes, stdout and stderr, and the catalog left behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { dumpCatalog } from '../../support/catalogDump';
import { addSession, createOpenCodeDatabase } from '../../support/openCodeDatabase';
import { tempDir } from '../../support/tempDir';
import { SYNTHETIC_TRACE, writeSyntheticTrace, writeTruncatedTrace } from '../../support/traceFixtures';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(ROOT, 'test', 'support', 'runStrataCli.ts');

function strata(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, STRATA_DEMO_TICK_MS: '0' } });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('[cli-import] strata import', () => {
  let tmp: ReturnType<typeof tempDir>;
  let workspace: string;
  let catalogPath: string;
  beforeEach(() => {
    tmp = tempDir();
    workspace = join(tmp.dir, 'project');
    catalogPath = join(workspace, '.strata', 'catalog.sqlite');
  });
  afterEach(() => tmp.remove());

  it('[cli-import] [trace-import-idempotent] imports a trace and prints it; a second import says so and prints the same id', () => {
    const file = writeSyntheticTrace(tmp.dir);
    const first = strata('import', file, '--workspace', workspace);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const trace = JSON.parse(first.stdout) as { id: string; name: string; format: string; steps: number; toolCalls: number };
    expect(trace).toMatchObject({ id: expect.stringMatching(/^tr_[0-9a-f]{16}$/), name: 'session.json', format: SYNTHETIC_TRACE.format, steps: SYNTHETIC_TRACE.steps, toolCalls: SYNTHETIC_TRACE.toolCalls });
    const before = dumpCatalog(catalogPath);
    expect(before.traces).toHaveLength(1);

    const again = strata('import', file, '--workspace', workspace);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`${file} was already imported as ${trace.id}`);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(dumpCatalog(catalogPath).traces).toEqual(before.traces);
  }, 120_000);

  it('[cli-import] [trace-opencode-sqlite] a folder with a Gemini CLI chat, an ATIF trajectory and an OpenCode database imports each in its format', () => {
    const folder = join(tmp.dir, 'agents');
    mkdirSync(folder);
    const line = (o: object) => JSON.stringify(o);
    writeFileSync(
      join(folder, 'session-2026-05-01T10-00-abcd.jsonl'),
      [
        line({ sessionId: 's', projectHash: 'p', startTime: '2026-05-01T10:00:00.000Z', lastUpdated: '2026-05-01T10:00:00.000Z' }),
        line({ id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'hi' }] }),
        line({ id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: 'hello', model: 'gemini-made-up', tokens: { input: 10, output: 1, cached: 0, total: 11 } }),
      ].join('\n') + '\n',
    );
    writeFileSync(join(folder, 'trajectory.json'), JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 'r', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'go' }, { step_id: 2, source: 'agent', message: 'done' }] }, null, 2));
    const db = createOpenCodeDatabase(join(folder, 'opencode.db'));
    addSession(db, 'ses_1', { updated: 1 });
    db.close();
    const r = strata('import', folder, '--workspace', workspace);
    expect(r.stderr).toContain('3 of 3 imported');
    expect(r.code).toBe(0);
    const outcomes = JSON.parse(r.stdout) as { path: string; trace: { format: string; steps: number } }[];
    expect(outcomes.map((o) => [o.path.slice(folder.length + 1), o.trace.format, o.trace.steps])).toEqual([
      ['opencode.db', 'opencode-sqlite', 1],
      ['session-2026-05-01T10-00-abcd.jsonl', 'gemini-cli-jsonl', 1],
      ['trajectory.json', 'atif-trajectory-json', 1],
    ]);
  }, 120_000);

  it('[cli-import] [trace-import-atomic] a malformed trace exits 1 with file:line on stderr and changes nothing', () => {
    strata('import', writeSyntheticTrace(tmp.dir), '--workspace', workspace);
    const before = dumpCatalog(catalogPath);
    const truncated = writeTruncatedTrace(tmp.dir);
    const r = strata('import', truncated, '--workspace', workspace);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^strata: ${truncated}:9:\\d+: not valid JSON`));
    expect(dumpCatalog(catalogPath)).toEqual(before);
  }, 120_000);

  it('[cli-import] without a file or folder it is a usage error (exit 2)', () => {
    const r = strata('import', '--workspace', workspace);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('import needs at least one trace file or folder');
    expect(existsSync(catalogPath)).toBe(false);
  }, 60_000);

  it('[cli-import] [trace-import-atomic] a folder and files import one by one: a refused one is named and the rest still import', () => {
    const folder = join(tmp.dir, 'sessions');
    mkdirSync(folder);
    const a = writeSyntheticTrace(folder, 'a.json', ' a');
    const b = writeSyntheticTrace(folder, 'b.json', ' b');
    const broken = writeTruncatedTrace(folder, 'c.json');
    const gone = join(tmp.dir, 'gone.jsonl');
    const r = strata('import', folder, gone, '--workspace', workspace);
    expect(r.code).toBe(1);
    const outcomes = JSON.parse(r.stdout) as { path: string; trace?: { id: string; name: string }; alreadyImported?: boolean; error?: string }[];
    expect(outcomes.map((o) => [o.path, o.trace?.name ?? null, o.alreadyImported ?? null])).toEqual([
      [a, 'a.json', false],
      [b, 'b.json', false],
      [broken, null, null],
      [gone, null, null],
    ]);
    expect(outcomes[2]!.error).toMatch(new RegExp(`^${broken}:9:\\d+: not valid JSON`));
    expect(outcomes[3]!.error).toContain(`${gone}: no such file or folder`);
    expect(r.stderr).toContain(`strata: ${broken}:9:`);
    expect(r.stderr).toContain('strata: 2 of 4 imported (0 already were), 2 refused');
    expect((dumpCatalog(catalogPath).traces ?? []).map((t) => (t as { name: string }).name).sort()).toEqual(['a.json', 'b.json']);

    // Again, with only the good ones: both were imported already, same ids, exit 0.
    const again = strata('import', a, b, '--workspace', workspace);
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout) as { trace: { id: string }; alreadyImported: boolean }[];
    expect(second.map((o) => [o.trace.id, o.alreadyImported])).toEqual([
      [outcomes[0]!.trace!.id, true],
      [outcomes[1]!.trace!.id, true],
    ]);
    expect(dumpCatalog(catalogPath).traces).toHaveLength(2);
  }, 120_000);

  it('[cli-import] [trace-folder-search] a dangling symbolic link in a folder is refused by name and the rest still import', () => {
    const folder = join(tmp.dir, 'links');
    mkdirSync(join(folder, 'nested'), { recursive: true });
    const a = writeSyntheticTrace(folder, 'a.json', ' a');
    const z = writeSyntheticTrace(join(folder, 'nested'), 'z.json', ' z');
    const dangling = join(folder, 'b.jsonl');
    symlinkSync(join(tmp.dir, 'moved-away.jsonl'), dangling);
    symlinkSync(join(tmp.dir, 'nothing'), join(folder, 'notes'));
    symlinkSync(folder, join(folder, 'nested', 'back'));
    const r = strata('import', folder, '--workspace', workspace);
    expect(r.code).toBe(1);
    const outcomes = JSON.parse(r.stdout) as { path: string; trace?: { name: string }; error?: string }[];
    expect(outcomes.map((o) => [o.path, o.trace?.name ?? null])).toEqual([
      [a, 'a.json'],
      [dangling, null],
      [z, 'z.json'],
    ]);
    expect(outcomes[1]!.error).toBe(`${dangling}: a symbolic link to ${join(tmp.dir, 'moved-away.jsonl')}, which does not exist`);
    expect(r.stderr).toContain(`strata: ${dangling}: a symbolic link to`);
    expect(r.stderr).not.toContain('ENOENT');
    expect(r.stderr).toContain('strata: 2 of 3 imported (0 already were), 1 refused');
    expect((dumpCatalog(catalogPath).traces ?? []).map((t) => (t as { name: string }).name).sort()).toEqual(['a.json', 'z.json']);
  }, 120_000);

  it('[cli-import] [catalog-single-writer] a catalog held by a running Strata is refused, saying so, and nothing is imported', () => {
    // This test process plays the running control room: it holds the workspace's catalog.
    const running = Catalog.open(catalogPath);
    try {
      const r = strata('import', writeSyntheticTrace(tmp.dir), '--workspace', workspace);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain("cannot import while a running Strata (a control room or web host) holds this workspace's catalog; close it, then run 'strata import' again.");
      expect(r.stderr).toContain(`in use by another Strata process (pid ${process.pid}`);
      expect(running.listTraces()).toEqual([]);
    } finally {
      running.close();
    }
  }, 60_000);
});
