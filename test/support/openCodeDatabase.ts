import Database from 'better-sqlite3';

/**
 * A made-up OpenCode database: the `session`, `message` and `part` tables with the columns
 * opencode-ai 1.18 creates (a subset of its schema, no real content), in WAL mode as OpenCode
 * keeps it. Rows are added with {@link addSession}; `data` columns hold the JSON OpenCode stores.
 */
export function createOpenCodeDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL);
    CREATE TABLE account (id text PRIMARY KEY, access_token text NOT NULL);
    CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL,
      cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
    CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
    CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  `);
  return db;
}

const T0 = 1_780_000_000_000;

/**
 * Add session `id` (updated at `T0 + updated`) with a user turn and one assistant step that reads a
 * file, and return the messages as `opencode export` prints them (`{ info: {...data, id,
 * sessionID}, parts: [{...data, id, sessionID, messageID}] }`).
 */
export function addSession(db: Database.Database, id: string, o: { updated: number; parentId?: string; task?: string }): { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] {
  db.prepare('INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    id,
    'global',
    o.parentId ?? null,
    `slug-${id}`,
    '/work/made-up',
    `title ${id}`,
    '1.18.33',
    T0,
    T0 + o.updated,
  );
  const user = { role: 'user', time: { created: T0 + 1 }, agent: 'build', model: { providerID: 'p', modelID: 'm' } };
  const assistant = { parentID: `msg_${id}_1`, role: 'assistant', mode: 'build', agent: 'build', cost: 0, tokens: { input: 7, output: 3, reasoning: 1, cache: { read: 90, write: 5 } }, modelID: 'model-made-up', providerID: 'p', time: { created: T0 + 2 } };
  const messages: [string, Record<string, unknown>, [string, Record<string, unknown>][]][] = [
    [`msg_${id}_1`, user, [[`prt_${id}_1`, { type: 'text', text: o.task ?? `task of ${id}` }]]],
    [
      `msg_${id}_2`,
      assistant,
      [
        [`prt_${id}_2`, { type: 'step-start' }],
        [`prt_${id}_3`, { type: 'text', text: 'Reading.' }],
        [`prt_${id}_4`, { type: 'tool', tool: 'read', callID: `call_${id}`, state: { status: 'completed', input: { filePath: 'a.ts' }, output: 'export {}', title: 'a.ts', metadata: {}, time: { start: T0 + 3, end: T0 + 4 } } }],
        [`prt_${id}_5`, { type: 'step-finish', reason: 'tool-calls', tokens: { input: 7, output: 3, reasoning: 1, cache: { read: 90, write: 5 } }, cost: 0 }],
      ],
    ],
  ];
  const out: { info: Record<string, unknown>; parts: Record<string, unknown>[] }[] = [];
  for (const [messageId, data, parts] of messages) {
    db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)').run(messageId, id, (data['time'] as { created: number }).created, T0 + 5, JSON.stringify(data));
    for (const [partId, part] of parts) db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)').run(partId, messageId, id, T0, T0, JSON.stringify(part));
    out.push({ info: { ...data, id: messageId, sessionID: id }, parts: parts.map(([partId, part]) => ({ ...part, id: partId, sessionID: id, messageID: messageId })) });
  }
  return out;
}
