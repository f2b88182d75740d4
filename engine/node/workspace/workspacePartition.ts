import { realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Catalog } from '../catalog/Catalog';
import { partitionId } from '../../memory/partitionId';

/** The catalog meta key that keeps the memory partition a catalog was given at its first open. */
const PARTITION_META_KEY = 'memory.partition';

/** Which memory partition a workspace reads and writes, and which partitions to move into it. */
export interface WorkspacePartition {
  partition: string;
  /**
   * Partitions whose entries belong to this workspace under another key and are re-keyed into
   * `partition` at open: the ids of other spellings of the folder's path, or (`'all'`) every
   * partition of a catalog that lives in the folder's own `.strata/` when it is first keyed.
   */
  adopt: readonly string[] | 'all';
}

/** The real path of `path` (symlinks resolved, the spelling the file system keeps), or `path` itself when it cannot be resolved. */
function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * The memory partition of a workspace (`[memory-partition]`), independent of how its folder is
 * spelled. A path is not a stable key: a symlink, a `..`, another case on a case-insensitive disk
 * or a rename each give another string. So the partition is chosen once, at the first open of a
 * catalog, from the folder's real path, and kept in the catalog's meta table; later opens read it
 * back. A folder workspace's catalog is `<folder>/.strata/catalog.sqlite`, inside the folder, so it
 * moves with a rename and is reached through any symlink: every spelling finds the same partition.
 * (A workspace id file beside the catalog would add nothing the catalog does not already hold.)
 *
 * Entries written before the partition was kept were keyed by the path as spelled then: those of
 * the spellings in use now are re-keyed into the kept partition; and when a catalog in the folder's
 * own `.strata/` is keyed for the first time, every partition in it is this folder's (under a name
 * it had before a rename), so all are. The demo workspace keeps its fixed `demo` key.
 */
export function workspacePartition(catalog: Catalog, o: { demo: boolean; workspaceDir: string | undefined; catalogPath: string }): WorkspacePartition {
  if (o.demo) return { partition: partitionId('demo'), adopt: [] };
  const spelled = resolve(o.workspaceDir ?? o.catalogPath);
  const real = realPath(spelled);
  const kept = catalog.getMeta(PARTITION_META_KEY);
  const partition = kept ?? partitionId(real);
  if (kept === undefined) catalog.setMeta(PARTITION_META_KEY, partition);
  const catalogDir = dirname(realPath(resolve(o.catalogPath)));
  const ownCatalog = o.workspaceDir !== undefined && basename(catalogDir) === '.strata' && dirname(catalogDir) === real;
  if (kept === undefined && ownCatalog) return { partition, adopt: 'all' };
  return { partition, adopt: [...new Set([partitionId(spelled), partitionId(real)])].filter((p) => p !== partition) };
}
