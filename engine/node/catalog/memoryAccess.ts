import type Database from 'better-sqlite3';
/**
 * Keyed by the catalog object itself (a `Catalog`; typed as any object so this module needs
 * nothing of `Catalog.ts`, which imports it: no cycle).
 */
const handles = new WeakMap<object, Database.Database>();

/** Called by `Catalog.open` only: remembers the connection the memory store may use. */
export function grantMemoryAccess(catalog: object, db: Database.Database): void {
  handles.set(catalog, db);
}

/**
 * The connection behind a catalog, for the memory store only (`[memory-only-module]`): the
 * import-boundary check allows this module to be imported from engine/node/catalog and
 * engine/node/memoryStore alone, and the catalog's own accessors refuse the memory table, so no other
 * code path can bypass the intake, the provenance fields or the revision check-and-set.
 */
export function memoryConnection(catalog: object): Database.Database {
  const db = handles.get(catalog);
  if (!db || !db.open) throw new Error('The catalog is closed.');
  return db;
}
