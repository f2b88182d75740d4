/**
 * The residual-exposure policy the purge dialog states before a purge: the words of
 * engine/memory/store/MemoryStore.ts `RESIDUAL_EXPOSURE` (the renderer may not import engine code;
 * a unit test keeps the two equal). After a purge the view shows the host's own `residual`, which
 * says less when VACUUM or the WAL truncation could not run.
 */
export const RESIDUAL_EXPOSURE_POLICY =
  'Purging deletes the rows, rewrites free pages (VACUUM) and truncates the WAL, so the removed text is no longer in ' +
  'catalog.sqlite or catalog.sqlite-wal. It cannot reach copies made before: backups, file-system snapshots, or pages written before secure_delete was on ' +
  'and not rewritten since. Deleting the catalog and its -wal and -shm files is the only complete removal.';

/** The words `purgeMemory` requires (the contract's PURGE_CONFIRMATION, checked by type). */
export const PURGE_WORDS: typeof import('../../../engine/contract').PURGE_CONFIRMATION = 'purge project memory';
