/**
 * OpenCode's SQLite database read in place: a real SQLite file in a temp dir, in WAL mode as
 * OpenCode keeps it, with made-up sessions in OpenCode's table shapes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TraceDto } from '../../../engine/contract';
import { traceFiles } from '../../../engine/node/traces/runCompare';
import { importTraceText } from '../../../engine/traces/importTrace';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { listOpenCodeSessions } from '../../../engine/node/traces/readOpenCodeDatabase';
import type { TraceEvent } from '../../../engine/traces/TraceEvent';
import { addSession, createOpenCodeDatabase } from '../../support/openCodeDatabase';
import { tempDir } from '../../support/tempDir';
import { useTraceHost } from '../../support/traceHost';

const withoutSource = (events: TraceEvent[]) => events.map((e) => ({ ...e, source: { path: e.source.path } }));
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((name) => [name, { sha: createHash('sha256').update(readFileSync(join(dir, name))).digest('hex'), mtime: statSync(join(dir, name)).mtimeMs }]));

describe('OpenCode database', () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  let exported: Record<string, ReturnType<typeof addSession>>;
  beforeEach(() => {
    tmp = tempDir('strata-opencode-');
    dbPath = join(tmp.dir, 'opencode.db');
    const db = createOpenCodeDatabase(dbPath);
    exported = {
      ses_old: addSession(db, 'ses_old', { updated: 100 }),
      ses_new: addSession(db, 'ses_new', { updated: 200 }),
      // a subagent's session, updated last, is not the "most recent session"
      ses_child: addSession(db, 'ses_child', { updated: 300, parentId: 'ses_new' }),
    };
    db.close();
  });
  afterEach(() => tmp.remove());

  it('[trace-opencode-sqlite] lists sessions newest first; the database path imports the newest top-level session, <db>#<id> that one, as an export would', () => {
    expect(listOpenCodeSessions(dbPath).map((s) => [s.id, s.parentId ?? null, s.messages])).toEqual([
      ['ses_child', 'ses_new', 2],
      ['ses_new', null, 2],
      ['ses_old', null, 2],
    ]);
    const newest = importTraceFile(dbPath);
    expect(newest).toMatchObject({ format: 'opencode-sqlite', file: `${dbPath}#ses_new` });
    expect(newest.events.map((e) => e.type)).toEqual(['user_input', 'assistant_text', 'tool_call', 'tool_result', 'usage']);
    expect(newest.events[0]).toMatchObject({ text: 'task of ses_new', source: { file: `${dbPath}#ses_new`, path: 'messages[0]' } });
    expect(newest.events[4]).toMatchObject({ input: 7, cacheRead: 90, cacheWrite: 5, output: 4, step: 0 });

    const old = importTraceFile(`${dbPath}#ses_old`);
    const exportDoc = JSON.stringify({ info: { id: 'ses_old', title: 'title ses_old' }, messages: exported['ses_old'] }, null, 2);
    expect(importTraceText(exportDoc, 'export.json').format).toBe('opencode-export-json');
    expect(withoutSource(old.events)).toEqual(withoutSource(importTraceText(exportDoc, 'export.json').events));
  });

  it('[trace-opencode-sqlite] reading changes nothing: no -wal or -shm is created beside a closed database, and its bytes and times stay', () => {
    const before = snapshot(tmp.dir);
    expect(Object.keys(before)).toEqual(['opencode.db']);
    listOpenCodeSessions(dbPath);
    importTraceFile(dbPath);
    importTraceFile(`${dbPath}#ses_child`);
    expect(snapshot(tmp.dir)).toEqual(before);
  });

  it('[trace-opencode-sqlite] with OpenCode running (a -wal file holding rows not yet in the main file) those rows are read in place, and neither file is written', () => {
    const writer = new Database(dbPath);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      addSession(writer, 'ses_live', { updated: 400, task: 'only in the WAL' });
      const files = () => Object.fromEntries(Object.entries(snapshot(tmp.dir)).filter(([name]) => !name.endsWith('-shm')));
      const before = files();
      expect(Object.keys(before).sort()).toEqual(['opencode.db', 'opencode.db-wal']);
      expect(importTraceFile(dbPath)).toMatchObject({ file: `${dbPath}#ses_live`, events: [{ type: 'user_input', text: 'only in the WAL' }, {}, {}, {}, {}] });
      expect(files()).toEqual(before);
    } finally {
      writer.close();
    }
  });

  it('[trace-opencode-sqlite] a session id it does not have, and a SQLite file that is not OpenCode\'s, are refused naming the database', () => {
    expect(() => importTraceFile(`${dbPath}#ses_missing`)).toThrow(`${dbPath} has no session ses_missing; its most recent sessions: ses_child, ses_new, ses_old.`);
    const other = join(tmp.dir, 'other.db');
    new Database(other).exec('CREATE TABLE t (x)');
    expect(() => importTraceFile(other)).toThrow(`${other} is a SQLite database but not OpenCode's (it has no session, message and part tables).`);
    const empty = join(tmp.dir, 'empty', 'opencode.db');
    mkdirSync(join(tmp.dir, 'empty'));
    createOpenCodeDatabase(empty).close();
    expect(() => importTraceFile(empty)).toThrow(`${empty} holds no OpenCode session to import.`);
  });

  it('[trace-opencode-sqlite] folder search finds opencode.db files and a <db>#<id> path is taken as given; other .db files are not traces', () => {
    writeFileSync(join(tmp.dir, 'cache.db'), 'not a trace');
    writeFileSync(join(tmp.dir, 'session.json'), '{}');
    expect(traceFiles([tmp.dir])).toEqual([dbPath, join(tmp.dir, 'session.json')]);
    expect(traceFiles([`${dbPath}#ses_old`])).toEqual([`${dbPath}#ses_old`]);
    expect(() => traceFiles([join(tmp.dir, 'missing.db#ses_old')])).toThrow('no such file or folder');
  });
});

describe('OpenCode database through the host', () => {
  const t = useTraceHost(['trace.imported']);

  it('[trace-opencode-sqlite] importTrace takes <db> and <db>#<id>: the session\'s export document is what is hashed and stored, once', async () => {
    const dbPath = join(t.tmp.dir, 'opencode.db');
    const db = createOpenCodeDatabase(dbPath);
    addSession(db, 'ses_a', { updated: 10 });
    addSession(db, 'ses_b', { updated: 20 });
    db.close();
    const conn = await t.connect();
    const first = await conn.call('importTrace', { path: dbPath });
    if (!first.ok) throw new Error(first.error.message);
    const { trace, alreadyImported } = first.value as { trace: TraceDto; alreadyImported: boolean };
    expect(alreadyImported).toBe(false);
    expect(trace).toMatchObject({ format: 'opencode-sqlite', name: 'opencode.db#ses_b', sourcePath: `${dbPath}#ses_b`, steps: 1, toolCalls: 1 });
    const again = await conn.call('importTrace', { path: `${dbPath}#ses_b` });
    expect(again.ok && again.value).toMatchObject({ alreadyImported: true, trace: { id: trace.id } });
    const other = await conn.call('importTrace', { path: `${dbPath}#ses_a` });
    expect(other.ok && (other.value as { trace: TraceDto }).trace.id).not.toBe(trace.id);
    const missing = await conn.call('importTrace', { path: `${dbPath}#nope` });
    expect(missing.ok ? undefined : missing.error).toMatchObject({ code: 'not_found' });
    expect(t.events.filter((e) => e.name === 'trace.imported')).toHaveLength(2);
  });
});
