/**
 * The residual-exposure policy the purge dialog states before a purge: the words of
 * engine/memory/store/MemoryStore.ts `RESIDUAL_EXPOSURE` (the renderer may not import engine code;
 * a unit test keeps the two equal). After a purge the view shows the host's own `residual`, which
 * says less when VACUUM or the WAL truncation could not run.
 */
export const RESIDUAL_EXPOSURE_POLICY =
  'Purging deletes the entries (table memory) and their recalled copies (table items), replaces every other copy of their ' +
  'text in tables items, agents, events and generation_entries with "[purged with project memory]", rewrites free pages (VACUUM) and ' +
  'truncates the WAL, so the removed text is no longer in catalog.sqlite, catalog.sqlite-wal or catalog.sqlite-shm. ' +
  'Agents of a run in progress keep what they already hold in memory, and what they write after the purge is new; ' +
  'imported traces (table traces) are recordings and are not rewritten, the report counts those that hold the text. ' +
  'It cannot reach copies made before: backups, file-system snapshots, or pages written before secure_delete was on ' +
  'and not rewritten since. Deleting the catalog and its -wal and -shm files is the only complete removal.';

/** The words `purgeMemory` requires (the contract's PURGE_CONFIRMATION, checked by type). */
export const PURGE_WORDS: typeof import('../../../engine/contract').PURGE_CONFIRMATION = 'purge project memory';
