/**
 * The memory guard (spec "Guard"): triggers that refuse, at the database, every insert or update
 * of the `memory` table whose payload is not schema-2 JSON, whose partition is not an opaque
 * `ws_` id, whose state is not one of the five, whose payload disagrees with its row, or (on
 * update) whose revision is not the previous one plus one. Installed at every catalog open before
 * any import runs, and again by the memory module after its own migration; an old writer that
 * tries a legacy payload or a raw workspace path fails there instead of reintroducing unvalidated
 * memory. The checks also close the ways around them: a repeated key (SQLite reads the first
 * copy, JavaScript the last), a NUL inside the partition (GLOB stops at it), JSON `true` read as 1,
 * and `INSERT OR REPLACE`, which would reset an entry without naming its revision.
 */
const HEX16 = '[0-9a-f]'.repeat(16);

const checks = (extra: string) => `
  SELECT RAISE(ABORT, 'memory guard: payload is not JSON') WHERE NEW.payload IS NULL OR json_valid(NEW.payload) = 0;
  SELECT RAISE(ABORT, 'memory guard: payload repeats a key') WHERE EXISTS (SELECT 1 FROM json_each(NEW.payload) GROUP BY key HAVING count(*) > 1);
  SELECT RAISE(ABORT, 'memory guard: payload is not schema version 2')
    WHERE json_type(NEW.payload, '$.schemaVersion') IS NOT 'integer' OR json_extract(NEW.payload, '$.schemaVersion') IS NOT 2;
  SELECT RAISE(ABORT, 'memory guard: partition is not an opaque ws_ id')
    WHERE NEW.partition IS NULL OR NEW.partition NOT GLOB 'ws_${HEX16}' OR octet_length(NEW.partition) <> 19;
  SELECT RAISE(ABORT, 'memory guard: state is not candidate, verified, stale, retired or deleted')
    WHERE NEW.state IS NULL OR NEW.state NOT IN ('candidate', 'verified', 'stale', 'retired', 'deleted');
  SELECT RAISE(ABORT, 'memory guard: payload id, partition, state or revision differs from the row')
    WHERE json_type(NEW.payload, '$.id') IS NOT 'text' OR json_extract(NEW.payload, '$.id') IS NOT NEW.id
       OR json_type(NEW.payload, '$.partition') IS NOT 'text' OR json_extract(NEW.payload, '$.partition') IS NOT NEW.partition
       OR json_type(NEW.payload, '$.state') IS NOT 'text' OR json_extract(NEW.payload, '$.state') IS NOT NEW.state
       OR json_type(NEW.payload, '$.revision') IS NOT 'integer' OR json_extract(NEW.payload, '$.revision') IS NOT NEW.revision;
  ${extra}`;

export const MEMORY_GUARD_TRIGGERS = ['memory_guard_insert', 'memory_guard_update'] as const;

/** SQL that (re)creates the guard triggers; safe to run repeatedly. */
export const memoryGuardSql = `
DROP TRIGGER IF EXISTS memory_guard_insert;
DROP TRIGGER IF EXISTS memory_guard_update;
CREATE TRIGGER memory_guard_insert BEFORE INSERT ON memory BEGIN ${checks(`
  SELECT RAISE(ABORT, 'memory guard: an entry with this id exists; update it at its next revision') WHERE EXISTS (SELECT 1 FROM memory WHERE id = NEW.id);
  SELECT RAISE(ABORT, 'memory guard: a new entry starts at revision 1') WHERE NEW.revision IS NOT 1;
  SELECT RAISE(ABORT, 'memory guard: a new entry starts as a candidate') WHERE NEW.state IS NOT 'candidate';`)} END;
CREATE TRIGGER memory_guard_update BEFORE UPDATE ON memory BEGIN ${checks("SELECT RAISE(ABORT, 'memory guard: every write is the previous revision plus one') WHERE NEW.revision IS NOT OLD.revision + 1;")} END;
`;

/** SQL that removes the guard (only the legacy import does this, inside its own transaction). */
export const dropMemoryGuardSql = `
DROP TRIGGER IF EXISTS memory_guard_insert;
DROP TRIGGER IF EXISTS memory_guard_update;
`;
