import { closeSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** Paths locked by this process, so a second Catalog in the same process is refused too. */
const heldHere = new Set<string>();

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/**
 * One writer per catalog (`[catalog-single-writer]`): a `<catalog>.lock` file holds the owner's
 * pid. A second process (or a second Catalog in this process) is refused with a message naming
 * the owner; a lock left by a process that no longer runs (killed, crashed) is taken over. SQLite
 * itself would let two processes write safely, but two hosts would each play the demo and keep
 * their own engine state, so the second is refused rather than silently diverging.
 */
export class CatalogLock {
  private constructor(private readonly path: string) {}

  static acquire(catalogPath: string): CatalogLock {
    // One key per file however its path is spelled (./, //, relative, symlinked folders).
    const resolved = resolve(catalogPath);
    const path = `${join(realpathSync(dirname(resolved)), basename(resolved))}.lock`;
    if (heldHere.has(path)) {
      throw new Error(`The catalog at ${catalogPath} is already open in this process; close it first.`);
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() } satisfies Owner));
        closeSync(fd);
        heldHere.add(path);
        return new CatalogLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = readOwner(path);
        const sameHost = !owner || owner.host === hostname();
        if (owner && sameHost && owner.pid === process.pid) {
          throw new Error(`The catalog at ${catalogPath} is already open in this process; close it first.`);
        }
        if (owner && sameHost && alive(owner.pid)) {
          throw new Error(
            `The catalog at ${catalogPath} is in use by another Strata process (pid ${owner.pid}, since ${owner.startedAt}). ` +
              'Close it, or open another workspace with --workspace or STRATA_HOME.',
          );
        }
        if (owner && !sameHost) {
          throw new Error(`The catalog at ${catalogPath} is locked by Strata on host ${owner.host} (pid ${owner.pid}). Close it there first.`);
        }
        // The owner is gone (killed or crashed): its lock is stale.
        unlinkSync(path);
      }
    }
    throw new Error(`Could not lock the catalog at ${catalogPath}.`);
  }

  release(): void {
    if (!heldHere.delete(this.path)) return;
    try {
      unlinkSync(this.path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
