import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SkillError } from '../../skills/SkillError';

/** Files larger than this are refused as `unreadable`: a skill is a page of guidance, not a dump. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/** A skill file's text and the absolute path it was read from (the `origin` its errors name). */
export interface SkillFileText {
  readonly text: string;
  readonly origin: string;
}

/**
 * Read every file named exactly `SKILL.md` at any depth under each of `dirs` (the shipped
 * `resources/skills` and a workspace's `.strata/skills`), in `dirs` order and sorted by path
 * within each, so the same tree always gives the same list. Never rejects: a file or folder that
 * cannot be read, is not UTF-8 or is over `MAX_SKILL_FILE_BYTES` becomes an `unreadable` error
 * naming its path and the rest still load. A dir that does not exist holds no skills (most
 * workspaces have no `.strata/skills`) and is not an error. Symbolic links are followed, each real
 * folder visited once. Parsing is not done here: `parseSkillFile` gets the text.
 */
export async function loadSkillFiles(dirs: readonly string[]): Promise<{ files: SkillFileText[]; errors: SkillError[] }> {
  const files: SkillFileText[] = [];
  const errors: SkillError[] = [];
  const visited = new Set<string>();
  const unreadable = (origin: string, why: string): void => {
    errors.push({ kind: 'unreadable', origin, message: `${origin}: could not be read (${why})` });
  };

  const readSkill = async (path: string): Promise<void> => {
    try {
      const info = await stat(path);
      if (info.size > MAX_SKILL_FILE_BYTES) return unreadable(path, `${info.size} bytes, over the ${MAX_SKILL_FILE_BYTES}-byte limit`);
      const text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
      files.push({ text, origin: path });
    } catch (err) {
      unreadable(path, reason(err));
    }
  };

  const walk = async (dir: string, root: boolean): Promise<void> => {
    let entries: Dirent[];
    try {
      const real = await realpath(dir);
      if (visited.has(real)) return;
      visited.add(real);
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (root && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      return unreadable(dir, reason(err));
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path)));
      if (isDir) await walk(path, false);
      else if (entry.name === 'SKILL.md') await readSkill(path);
    }
  };

  for (const dir of dirs) await walk(resolve(dir), true);
  return { files, errors };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function reason(err: unknown): string {
  if (err instanceof TypeError) return 'not valid UTF-8 text';
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ? `${code}: ${(err as Error).message}` : String(err);
}
