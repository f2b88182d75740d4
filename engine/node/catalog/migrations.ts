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
  {
    version: 2,
    name: 'items pool, generations with their entries, project memory',
    sql: `
      CREATE TABLE items (
        id           TEXT PRIMARY KEY,
        seq          INTEGER NOT NULL,
        kind         TEXT NOT NULL,
        class        TEXT NOT NULL,
        title        TEXT NOT NULL,
        content      TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        provenance   TEXT NOT NULL,
        pinned       INTEGER NOT NULL,
        mandatory    INTEGER NOT NULL,
        phase        TEXT,
        signature    TEXT,
        removed      INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX items_by_seq ON items(seq);

      CREATE TABLE generations (
        agent_id        TEXT NOT NULL,
        number          INTEGER NOT NULL,
        phase           TEXT NOT NULL,
        strategy        TEXT NOT NULL,
        budget          INTEGER NOT NULL,
        tokens          INTEGER NOT NULL,
        overflow        INTEGER NOT NULL,
        boundary_kind   TEXT NOT NULL,
        boundary_reason TEXT NOT NULL,
        builds          INTEGER NOT NULL,
        prefix_hash     TEXT NOT NULL,
        started_at      INTEGER NOT NULL,
        layer_tokens    TEXT NOT NULL,
        indicators      TEXT NOT NULL,
        dropped_total   INTEGER NOT NULL,
        PRIMARY KEY (agent_id, number)
      ) STRICT;

      CREATE TABLE generation_entries (
        agent_id  TEXT NOT NULL,
        number    INTEGER NOT NULL,
        role      TEXT NOT NULL CHECK (role IN ('included', 'dropped', 'compressed')),
        position  INTEGER NOT NULL,
        item_id   TEXT NOT NULL,
        layer     TEXT,
        tokens    INTEGER NOT NULL,
        score     REAL,
        tier      INTEGER,
        text      TEXT NOT NULL,
        from_tokens INTEGER,
        to_tokens   INTEGER,
        PRIMARY KEY (agent_id, number, role, position),
        FOREIGN KEY (agent_id, number) REFERENCES generations(agent_id, number) ON DELETE CASCADE
      ) STRICT;

      CREATE TABLE memory (
        id         TEXT PRIMARY KEY,
        partition  TEXT NOT NULL,
        state      TEXT NOT NULL,
        revision   INTEGER NOT NULL,
        payload    TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX memory_by_partition_state ON memory(partition, state);
    `,
  },
  {
    version: 3,
    name: 'imported traces with their normalized event streams',
    sql: `
      CREATE TABLE traces (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        format      TEXT NOT NULL,
        source_path TEXT NOT NULL,
        sha256      TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
        imported_at TEXT NOT NULL,
        steps       INTEGER NOT NULL CHECK (steps >= 0),
        tool_calls  INTEGER NOT NULL CHECK (tool_calls >= 0),
        event_count INTEGER NOT NULL CHECK (event_count >= 0),
        events      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX traces_by_imported_at ON traces(imported_at);
    `,
  },
  {
    version: 4,
    name: 'the history of comparisons, each saved whole when it ends',
    sql: `
      CREATE TABLE comparisons (
        id          TEXT PRIMARY KEY,
        seq         INTEGER NOT NULL UNIQUE,
        started_at  INTEGER NOT NULL,
        summary     TEXT NOT NULL,
        dto         TEXT NOT NULL
      ) STRICT;
    `,
  },
];

/** The schema version this build writes. A catalog with a higher version is refused, not touched. */
export const latestSchemaVersion = migrations.reduce((v, m) => Math.max(v, m.version), 0);
