import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Confinement of tool paths to the agent's workspace. Every path a tool touches goes through
 * `confine`, which refuses, with an error naming the path as requested:
 * - a NUL character, a Windows drive or UNC path that is not inside the root;
 * - anything whose lexical resolution leaves the root (`..`, an absolute path elsewhere);
 * - anything whose real path (symlinks resolved with realpath) leaves the root;
 * - the engine's own store, `.strata/` at the root (the catalog lives there), by name or through a link.
 * Backslashes are separators on every platform (a model trained on Windows paths writes them), so
 * `src\a.ts` is `src/a.ts`; a file whose name holds a backslash cannot be named (a safe loss).
 */

/** The folder of the engine's internals, at the workspace root; never readable by a tool. */
const INTERNAL_DIR = '.strata';
/** Longest path a tool accepts. */
const MAX_PATH_CHARS = 4096;

export type ConfinementReason = 'nul' | 'too_long' | 'outside' | 'symlink_outside' | 'internal';

/** A refused path. `requested` is the path as the model wrote it. */
export class ConfinementError extends Error {
  constructor(
    readonly requested: string,
    readonly reason: ConfinementReason,
    message: string,
  ) {
    super(message);
    this.name = 'ConfinementError';
  }
}

/** A workspace root, as given and as real path (they differ when the root is reached through a link). */
export interface WorkspaceRoot {
  /** Absolute, normalized, as given. */
  readonly root: string;
  /** `realpath` of `root`. */
  readonly realRoot: string;
}

/** A path inside the workspace. */
export interface ConfinedPath {
  /** Real absolute path when the path exists; else the lexical absolute path under the real root. */
  absolute: string;
  /** Relative to the root as requested (normalized, links not resolved), `/`-separated; `.` for the root. */
  relative: string;
  /** Relative to the real root after resolving links (equal to `relative` when no link is on the way or the path does not exist). */
  realRelative: string;
  exists: boolean;
}

/** Open a workspace root: it must exist and be a directory (throws otherwise: a programming error, not a model's). */
export function workspaceRoot(root: string): WorkspaceRoot {
  const abs = path.resolve(root);
  const realRoot = realpathSync.native(abs);
  if (!statSync(realRoot).isDirectory()) throw new Error(`Workspace root ${abs} is not a directory.`);
  return Object.freeze({ root: abs, realRoot });
}

const quote = (p: string) => JSON.stringify(p);
const isWin = path.sep === '\\';

/** `relative` with `/` separators. */
const toPosix = (p: string) => (isWin ? p.split('\\').join('/') : p);

/** Is `rel` (a path.relative result) inside its base? */
function isInside(rel: string): boolean {
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}

/**
 * Whether a root-relative `/`-separated path is an engine store or inside one: a `.strata` segment
 * anywhere (the workspace's own at the root, or a nested workspace's). Compared without case and
 * trailing dots or blanks, as case-insensitive file systems (macOS, Windows) and Windows name
 * trimming would resolve `.STRATA` or `.strata.` to the same folder.
 */
export function isInternalPath(relative: string): boolean {
  return relative.split('/').some((segment) => isInternalName(segment));
}

/** Whether a single directory entry name is an engine store (see `isInternalPath`). */
export function isInternalName(name: string): boolean {
  return name.toLowerCase().replace(/[. ]+$/, '') === INTERNAL_DIR;
}

/**
 * The lexical part of confinement (no file system access): the absolute path under the real root
 * and its root-relative form, or a `ConfinementError`. An absolute request is accepted when it lies
 * under either form of the root.
 */
export function confineLexically(ws: WorkspaceRoot, requested: string): { absolute: string; relative: string } {
  if (typeof requested !== 'string') throw new ConfinementError(String(requested), 'outside', `path ${quote(String(requested))} is not a string`);
  if (requested.includes('\u0000')) throw new ConfinementError(requested, 'nul', `path ${quote(requested)} contains a NUL character`);
  if (requested.length > MAX_PATH_CHARS) throw new ConfinementError(requested, 'too_long', `path ${quote(requested.slice(0, 80))}… is longer than ${MAX_PATH_CHARS} characters`);
  const given = requested.trim() === '' ? '.' : requested;
  const slashed = isWin ? given : given.split('\\').join('/');
  if (!isWin && /^[A-Za-z]:/.test(slashed)) {
    throw new ConfinementError(requested, 'outside', `path ${quote(requested)} is a Windows drive path, outside the workspace; use a path relative to the workspace root`);
  }
  let relative: string | undefined;
  if (path.isAbsolute(slashed)) {
    // Absolute: accepted under the real root or the root as given (a link to the workspace).
    for (const base of [ws.realRoot, ws.root]) {
      const rel = path.relative(base, path.resolve(slashed));
      if (isInside(rel)) {
        relative = rel;
        break;
      }
    }
  } else {
    const rel = path.relative(ws.realRoot, path.resolve(ws.realRoot, slashed));
    if (isInside(rel)) relative = rel;
  }
  if (relative === undefined) throw new ConfinementError(requested, 'outside', `path ${quote(requested)} is outside the workspace`);
  const posix = relative === '' ? '.' : toPosix(relative);
  if (isInternalPath(posix)) throw new ConfinementError(requested, 'internal', `path ${quote(requested)} is inside ${INTERNAL_DIR}/, the engine's internal store, which tools may not touch`);
  return { absolute: relative === '' ? ws.realRoot : path.join(ws.realRoot, relative), relative: posix };
}

/**
 * Confine a requested path (lexically, then by its real path). For a path that does not exist the
 * nearest existing ancestor must resolve inside the root, so a later create cannot land outside.
 * Throws `ConfinementError`; other file system errors (EACCES, ELOOP) are rethrown as they are.
 */
export async function confine(ws: WorkspaceRoot, requested: string): Promise<ConfinedPath> {
  const lexical = confineLexically(ws, requested);
  let probe = lexical.absolute;
  let exists = true;
  let real: string | undefined;
  for (;;) {
    try {
      real = await realpath(probe);
      break;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      exists = false;
      const parent = path.dirname(probe);
      if (parent === probe) throw err;
      probe = parent;
    }
  }
  const rel = path.relative(ws.realRoot, real);
  if (!isInside(rel)) {
    throw new ConfinementError(requested, 'symlink_outside', `path ${quote(requested)} resolves (through a symbolic link) to a place outside the workspace`);
  }
  const posix = rel === '' ? '.' : toPosix(rel);
  if (isInternalPath(posix)) {
    throw new ConfinementError(requested, 'internal', `path ${quote(requested)} resolves (through a symbolic link) into ${INTERNAL_DIR}/, the engine's internal store`);
  }
  if (!exists) return { absolute: lexical.absolute, relative: lexical.relative, realRelative: lexical.relative, exists: false };
  return { absolute: real, relative: lexical.relative, realRelative: posix, exists: true };
}

/**
 * Check a real path met while walking (a symlinked file found by `grep`): inside the root and not
 * in the store. Returns its root-relative form, or undefined when it must be skipped.
 */
export async function realInside(ws: WorkspaceRoot, absolute: string): Promise<{ absolute: string; relative: string } | undefined> {
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    return undefined;
  }
  const rel = path.relative(ws.realRoot, real);
  if (!isInside(rel)) return undefined;
  const posix = rel === '' ? '.' : toPosix(rel);
  return isInternalPath(posix) ? undefined : { absolute: real, relative: posix };
}
