import type Database from 'better-sqlite3';
import type { Catalog } from './Catalog';

const handles = new WeakMap<Catalog, Database.Database>();

/** Called by `Catalog.open` only: remembers the connection the memory store may use. */
export function grantMemoryAccess(catalog: Catalog, db: Database.Database): void {
  handles.set(catalog, db);
}

/**
 * The connection behind a catalog, for the memory store only (`[memory-only-module]`): the
 * import-boundary check allows this module to be imported from engine/catalog and
 * engine/memory/store alone, and the catalog's own accessors refuse the memory table, so no other
 * code path can bypass the intake, the provenance fields or the revision check-and-set.
 */
export function memoryConnection(catalog: Catalog): Database.Database {
  const db = handles.get(catalog);
  if (!db || !db.open) throw new Error('The catalog is closed.');
  return db;
}
