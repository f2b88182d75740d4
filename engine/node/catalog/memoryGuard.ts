/**
 * The memory guard (spec "Guard"): triggers that refuse, at the database, every insert or update
 * of the `memory` table whose payload is not schema-2 JSON, whose partition is not an opaque
 * `ws_` id, whose state is not one of the five, whose payload disagrees with its row, whose
 * `verified` is not JSON true exactly in state verified, or (on update) whose revision is not the
 * previous one plus one; and the writes `MemoryStore` never makes (`[memory-guard-transitions]`):
 * a change of an entry's content (only marking it deleted may drop it, as a purge's tombstone
 * does; its title and body change only by an edit, which makes it a candidate: `[memory-edit]`), a verify from any state but candidate or stale, leaving deleted, and a DELETE of a row
 * not marked deleted (a purge marks each row deleted, then deletes it).
 *
 * What it cannot do: tell the app from another writer that follows these rules (a raw verify of a
 * candidate written as `verify` writes it is accepted), or stop `DROP TRIGGER`; no trigger can.
 * It is installed again at every catalog open and memory open, so a dropped guard is back before
 * this app writes or reads memory, and every row is read through the intake in any case. Installed at every catalog open before
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
    WHERE NEW.partition IS NULL OR NEW.partition NOT GLOB 'ws_${HEX16}' OR length(CAST(NEW.partition AS BLOB)) <> 19;
  SELECT RAISE(ABORT, 'memory guard: state is not candidate, verified, stale, retired or deleted')
    WHERE NEW.state IS NULL OR NEW.state NOT IN ('candidate', 'verified', 'stale', 'retired', 'deleted');
  SELECT RAISE(ABORT, 'memory guard: payload id, partition, state or revision differs from the row')
    WHERE json_type(NEW.payload, '$.id') IS NOT 'text' OR json_extract(NEW.payload, '$.id') IS NOT NEW.id
       OR json_type(NEW.payload, '$.partition') IS NOT 'text' OR json_extract(NEW.payload, '$.partition') IS NOT NEW.partition
       OR json_type(NEW.payload, '$.state') IS NOT 'text' OR json_extract(NEW.payload, '$.state') IS NOT NEW.state
       OR json_type(NEW.payload, '$.revision') IS NOT 'integer' OR json_extract(NEW.payload, '$.revision') IS NOT NEW.revision;
  SELECT RAISE(ABORT, 'memory guard: verified is true exactly when the state is verified')
    WHERE json_type(NEW.payload, '$.verified') IS NOT (CASE WHEN NEW.state = 'verified' THEN 'true' ELSE 'false' END);
  ${extra}`;

/** The fields of an entry's content: set by its first write, never changed by a later one. */
const CONTENT_FIELDS = ['kind', 'evidence', 'provenance', 'createdAt'];
/** The text a person can edit (`[memory-edit]`): an edit makes the entry a candidate that needs a new verify. */
const TEXT_FIELDS = ['title', 'body'];
const differs = (fields: readonly string[]) => fields.map((f) => `json_extract(NEW.payload, '$.${f}') IS NOT json_extract(OLD.payload, '$.${f}')`).join(' OR ');
const contentDiffers = differs(CONTENT_FIELDS);
const textDiffers = differs(TEXT_FIELDS);

const updateChecks = `
  SELECT RAISE(ABORT, 'memory guard: every write is the previous revision plus one') WHERE NEW.revision IS NOT OLD.revision + 1;
  SELECT RAISE(ABORT, 'memory guard: a deleted entry stays deleted') WHERE OLD.state = 'deleted' AND NEW.state IS NOT 'deleted';
  SELECT RAISE(ABORT, 'memory guard: only a candidate or stale entry can become verified')
    WHERE NEW.state = 'verified' AND OLD.state NOT IN ('candidate', 'stale', 'verified');
  SELECT RAISE(ABORT, 'memory guard: an entry''s content (kind, evidence, provenance, createdAt) never changes; only marking it deleted may drop it')
    WHERE CASE WHEN NEW.state = 'deleted' OR json_valid(OLD.payload) = 0 THEN 0 ELSE (${contentDiffers}) END;
  SELECT RAISE(ABORT, 'memory guard: an entry''s title and body change only by an edit of a candidate, verified or stale entry, which makes it a candidate')
    WHERE CASE WHEN NEW.state = 'deleted' OR json_valid(OLD.payload) = 0 THEN 0
               WHEN NEW.state = 'candidate' AND OLD.state IN ('candidate', 'verified', 'stale') THEN 0
               ELSE (${textDiffers}) END;`;

export const MEMORY_GUARD_TRIGGERS = ['memory_guard_delete', 'memory_guard_insert', 'memory_guard_update'] as const;

/** SQL that (re)creates the guard triggers; safe to run repeatedly. */
export const memoryGuardSql = `
DROP TRIGGER IF EXISTS memory_guard_insert;
DROP TRIGGER IF EXISTS memory_guard_update;
DROP TRIGGER IF EXISTS memory_guard_delete;
CREATE TRIGGER memory_guard_insert BEFORE INSERT ON memory BEGIN ${checks(`
  SELECT RAISE(ABORT, 'memory guard: an entry with this id exists; update it at its next revision') WHERE EXISTS (SELECT 1 FROM memory WHERE id = NEW.id);
  SELECT RAISE(ABORT, 'memory guard: a new entry starts at revision 1') WHERE NEW.revision IS NOT 1;
  SELECT RAISE(ABORT, 'memory guard: a new entry starts as a candidate') WHERE NEW.state IS NOT 'candidate';`)} END;
CREATE TRIGGER memory_guard_update BEFORE UPDATE ON memory BEGIN ${checks(updateChecks)} END;
CREATE TRIGGER memory_guard_delete BEFORE DELETE ON memory BEGIN
  SELECT RAISE(ABORT, 'memory guard: only an entry marked deleted can be removed; mark it deleted (a new revision) first') WHERE OLD.state IS NOT 'deleted';
END;
`;

/** SQL that removes the guard (only the legacy import does this, inside its own transaction). */
export const dropMemoryGuardSql = `
DROP TRIGGER IF EXISTS memory_guard_insert;
DROP TRIGGER IF EXISTS memory_guard_update;
DROP TRIGGER IF EXISTS memory_guard_delete;
`;
