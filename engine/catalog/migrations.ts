/**
 * Versioned schema migrations, applied in order inside one transaction at open. A migration is
 * never edited once released: a change is a new migration with the next version.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'agents, event log, workspace meta',
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE agents (
        agent_id          TEXT PRIMARY KEY,
        parent            TEXT REFERENCES agents(agent_id),
        role              TEXT NOT NULL,
        task              TEXT NOT NULL,
        model             TEXT NOT NULL,
        status            TEXT NOT NULL,
        generation        INTEGER NOT NULL CHECK (generation >= 1),
        tokens            INTEGER NOT NULL CHECK (tokens >= 0),
        budget            INTEGER NOT NULL CHECK (budget > 0),
        usage_input       INTEGER NOT NULL DEFAULT 0,
        usage_cache_read  INTEGER NOT NULL DEFAULT 0,
        usage_cache_write INTEGER NOT NULL DEFAULT 0,
        usage_output      INTEGER NOT NULL DEFAULT 0,
        revision          INTEGER NOT NULL DEFAULT 0,
        updated_at        TEXT NOT NULL
      ) STRICT;

      CREATE TABLE events (
        seq      INTEGER PRIMARY KEY AUTOINCREMENT,
        at       TEXT NOT NULL,
        level    TEXT NOT NULL,
        agent_id TEXT,
        message  TEXT NOT NULL
      ) STRICT;
      CREATE INDEX events_by_agent ON events(agent_id, seq);
    `,
  },
];

/** The schema version this build writes. A catalog with a higher version is refused, not touched. */
export const latestSchemaVersion = migrations.reduce((v, m) => Math.max(v, m.version), 0);
