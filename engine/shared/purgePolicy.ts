/**
 * What a purge of project memory asks for and promises, in words defined once: the host checks the
 * confirmation and reports with these texts, and the purge dialog states them before a purge.
 */

/** The words `purgeMemory` requires, so a purge is never one stray call away. */
export const PURGE_CONFIRMATION = 'purge project memory';

/** What replaces a purged entry's text wherever else the catalog held it. */
export const PURGED_TEXT = '[purged with project memory]';

/** What no purge can reach (spec "WAL and free pages"). */
export const BEYOND_REACH =
  'It cannot reach copies made before: backups, file-system snapshots, or pages written before secure_delete was on ' +
  'and not rewritten since. Deleting the catalog and its -wal and -shm files is the only complete removal.';

/** What a purge does not change: the memory of a run in progress, and imported recordings. */
export const NOT_CHANGED =
  'Agents of a run in progress keep what they already hold in memory, and what they write after the purge is new; ' +
  'imported traces (table traces) are recordings and are not rewritten, the report counts those that hold the text.';

/** The honest residual-exposure statement the UI and README show before a purge, and after a complete one. */
export const RESIDUAL_EXPOSURE: string =
  'Purging deletes the entries (table memory) and their recalled copies (table items), replaces every other copy of their ' +
  `text in tables items, agents, events and generation_entries with "${PURGED_TEXT}", rewrites free pages (VACUUM) and ` +
  'truncates the WAL, so the removed text is no longer in catalog.sqlite, catalog.sqlite-wal or catalog.sqlite-shm. ' +
  `${NOT_CHANGED} ${BEYOND_REACH}`;
