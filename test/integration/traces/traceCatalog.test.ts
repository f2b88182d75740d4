import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../engine/node/catalog/Catalog';
import { latestSchemaVersion, migrations } from '../../../engine/node/catalog/migrations';
import type { ErrorCode, StrataError } from '../../../engine/contract';
import { importTraceIntoCatalog, MAX_TRACE_BYTES } from '../../../engine/host/importTraceIntoCatalog';
import { wireErrorOf } from '../../../engine/host/wireErrorOf';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { dumpCatalog } from '../../support/catalogDump';
import { tempDir } from '../../support/tempDir';
import { SYNTHETIC_TRACE, writeSyntheticTrace, writeTruncatedTrace } from '../../support/traceFixtures';

const T0 = Date.parse('2026-11-29T12:00:00Z');

/** The refusal `fn` throws, as a caller gets it through the dispatcher (`[error-model]`). */
function refusal(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (err) {
    const wire = wireErrorOf(err);
    if (wire) return wire;
    throw err;
  }
  throw new Error('expected a refusal');
}

/** The refusal an asynchronous import ends in, as a caller gets it. */
async function refused(imported: Promise<unknown>): Promise<StrataError> {
  try {
    await imported;
  } catch (err) {
    const wire = wireErrorOf(err);
    if (wire) return wire;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('imported traces in the workspace catalog', () => {
  let tmp: ReturnType<typeof tempDir>;
  let path: string;
  let catalog: Catalog;
  beforeEach(() => {
    tmp = tempDir();
    path = join(tmp.dir, 'catalog.sqlite');
    catalog = Catalog.open(path);
  });
  afterEach(() => {
    catalog.close();
    tmp.remove();
  });

  it('[trace-catalog] a version-2 catalog migrates to the traces table and keeps what it held', () => {
    catalog.close();
    const old = join(tmp.dir, 'v2.sqlite');
    const raw = new Database(old);
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    for (const m of migrations.filter((m) => m.version <= 2)) {
      raw.exec(m.sql);
      raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, 'then');
    }
    raw.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('kept', 'yes');
    raw.close();
    catalog = Catalog.open(old);
    expect(latestSchemaVersion).toBe(4);
    expect(catalog.schemaVersion()).toBe(4);
    expect(catalog.getMeta('kept')).toBe('yes');
    expect(catalog.listTraces()).toEqual([]);
    expect(catalog.integrityCheck()).toBe('ok');
  });

  it('[trace-catalog] stores the trace with its counts and events, and reads them back after a reopen', async () => {
    const file = writeSyntheticTrace(tmp.dir);
    const { trace, alreadyImported } = await importTraceIntoCatalog(catalog, file, T0);
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(alreadyImported).toBe(false);
    expect(trace).toEqual({
      id: `tr_${sha256.slice(0, 16)}`,
      name: 'session.json',
      format: SYNTHETIC_TRACE.format,
      sourcePath: file,
      sha256,
      importedAt: '2026-11-29T12:00:00.000Z',
      steps: SYNTHETIC_TRACE.steps,
      toolCalls: SYNTHETIC_TRACE.toolCalls,
      eventCount: SYNTHETIC_TRACE.eventCount,
    });
    catalog.close();
    catalog = Catalog.open(path);
    expect(catalog.getTrace(trace.id)).toEqual(trace);
    expect(catalog.listTraces()).toEqual([trace]);
    expect(catalog.traceEvents(trace.id)).toEqual(importTraceFile(file).events);
    expect(catalog.traceEvents('tr_nope')).toBeUndefined();
  });

  it('[trace-catalog] [mask-secrets] the stored events are masked: a key in the session never reaches the catalog', async () => {
    const key = 'sk-proj-Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm';
    const file = writeSyntheticTrace(tmp.dir, 'keyed.json', ` The key is OPENAI_API_KEY=${key}`);
    const { trace } = await importTraceIntoCatalog(catalog, file, T0);
    const stored = catalog.traceEvents(trace.id) ?? [];
    const input = stored.find((e) => e.type === 'user_input');
    expect(input).toMatchObject({ text: expect.stringContaining('Fix the off-by-one in src/range.ts and run the tests. The key is OPENAI_API_KEY=[secret masked: ') });
    // Everything else is as imported.
    expect(stored.length).toBe(importTraceFile(file).events.length);
    expect(stored.filter((e) => e.type !== 'user_input')).toEqual(importTraceFile(file).events.filter((e) => e.type !== 'user_input'));
    catalog.close();
    for (const f of [path, `${path}-wal`]) if (existsSync(f)) expect(readFileSync(f).toString('latin1')).not.toContain(key);
    catalog = Catalog.open(path);
  });

  it('[trace-catalog] lists traces newest first', async () => {
    const first = (await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir, 'a.json', ' (a)'), T0)).trace;
    const second = (await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir, 'b.json', ' (b)'), T0 + 1000)).trace;
    const sameTime = (await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir, 'c.json', ' (c)'), T0 + 1000)).trace;
    expect(catalog.listTraces().map((t) => t.name)).toEqual([sameTime.name, second.name, first.name]);
  });

  it('[trace-import-idempotent] the same bytes from another path are the stored trace: no second row', async () => {
    const file = writeSyntheticTrace(tmp.dir);
    const first = await importTraceIntoCatalog(catalog, file, T0);
    mkdirSync(join(tmp.dir, 'elsewhere'));
    const copy = join(tmp.dir, 'elsewhere', 'renamed.json');
    copyFileSync(file, copy);
    const before = dumpCatalog(path);
    const again = await importTraceIntoCatalog(catalog, copy, T0 + 60_000);
    expect(again).toEqual({ trace: first.trace, alreadyImported: true });
    expect(dumpCatalog(path)).toEqual(before);
    expect(catalog.listTraces()).toHaveLength(1);
    // Different bytes are a different trace.
    writeFileSync(copy, `${readFileSync(file, 'utf8')}\n`);
    expect((await importTraceIntoCatalog(catalog, copy, T0)).alreadyImported).toBe(false);
    expect(catalog.listTraces()).toHaveLength(2);
  });

  it('[trace-import-atomic] a missing file, a folder, a malformed trace and one without LLM calls are refused, naming the file, and write nothing', async () => {
    await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir), T0);
    const before = dumpCatalog(path);
    const missing = join(tmp.dir, 'no-such.jsonl');
    expect(await refused(importTraceIntoCatalog(catalog, missing, T0))).toMatchObject({ code: 'not_found', message: `No trace file at ${missing}.` });
    expect(await refused(importTraceIntoCatalog(catalog, tmp.dir, T0))).toMatchObject({ code: 'invalid_args', message: expect.stringContaining(`${tmp.dir} is not a file`) });
    const truncated = writeTruncatedTrace(tmp.dir);
    expect(await refused(importTraceIntoCatalog(catalog, truncated, T0))).toMatchObject({ code: 'invalid_args', message: expect.stringMatching(new RegExp(`^${truncated}:9:\\d+: not valid JSON`)) });
    const notATrace = join(tmp.dir, 'notes.txt');
    writeFileSync(notATrace, 'just some notes\n');
    expect(await refused(importTraceIntoCatalog(catalog, notATrace, T0))).toMatchObject({ code: 'invalid_args', message: expect.stringMatching(/notes\.txt:1: unrecognised trace format/) });
    const userOnly = join(tmp.dir, 'user-only.json');
    writeFileSync(userOnly, JSON.stringify({ messages: [{ role: 'user', content: 'hello' }] }));
    expect(await refused(importTraceIntoCatalog(catalog, userOnly, T0))).toMatchObject({ code: 'invalid_args', message: expect.stringContaining('user-only.json:1: the trace records no LLM call') });
    expect(dumpCatalog(path)).toEqual(before);
  });

  it.skipIf(process.platform === 'win32')('[trace-import-atomic] a device, a FIFO, a /proc file, an empty or oversize file and a path the system refuses are refused at once, naming the path', async () => {
    await importTraceIntoCatalog(catalog, writeSyntheticTrace(tmp.dir), T0);
    const before = dumpCatalog(path);
    const at = (name: string) => join(tmp.dir, name);
    execFileSync('mkfifo', [at('trace.fifo')]);
    symlinkSync('/dev/zero', at('zero.json'));
    symlinkSync(at('loop.json'), at('loop.json'));
    writeFileSync(at('empty.json'), '');
    const fd = openSync(at('huge.json'), 'w');
    ftruncateSync(fd, MAX_TRACE_BYTES + 1);
    closeSync(fd);
    const cases: [string, ErrorCode, string][] = [
      // Reading any of these would block or never end; they are refused before a byte is read.
      [at('trace.fifo'), 'invalid_args', `${at('trace.fifo')} is not a file`],
      ['/dev/zero', 'invalid_args', '/dev/zero is not a file'],
      [at('zero.json'), 'invalid_args', `${at('zero.json')} is not a file`],
      [at('huge.json'), 'invalid_args', `${at('huge.json')} is 257 MiB; traces up to 256 MiB are imported.`],
      [at('empty.json'), 'invalid_args', `${at('empty.json')} is empty`],
      ...(existsSync('/proc/self/environ') ? [['/proc/self/environ', 'invalid_args', '/proc/self/environ is empty (or a special file that reports no size)'] as [string, ErrorCode, string]] : []),
      // Paths the system refuses are refusals too, not internal errors.
      [at('loop.json'), 'invalid_args', `Cannot read ${at('loop.json')}`],
      [at('x'.repeat(300)), 'invalid_args', `Cannot read ${at('x'.repeat(300))}`],
      [at('a\0b.json'), 'invalid_args', `"${tmp.dir}/a\\u0000b.json" contains a NUL byte`],
      [join(at('empty.json'), 'child.json'), 'not_found', `No trace file at ${join(at('empty.json'), 'child.json')}.`],
    ];
    for (const [file, code, message] of cases) expect(await refused(importTraceIntoCatalog(catalog, file, T0))).toMatchObject({ code, message: expect.stringContaining(message) });
    expect(dumpCatalog(path)).toEqual(before);
    // The command line's reader (strata compare, the replay worker) refuses them the same way.
    for (const [file, code, message] of cases) expect(refusal(() => importTraceFile(file))).toMatchObject({ code, message: expect.stringContaining(message) });
  });
});
