import { readFileSync } from 'node:fs';
import { isAbsolute, join, normalize, relative } from 'node:path';
import type { WorktreeView } from '../memory/recall/WorktreeView';
import { contentHash } from '../text/hash';

/**
 * The demo workspace has no repository on disk: its view is synthetic and stable (every path it
 * names exists with a fixed hash, and every commit is an ancestor), so promoted demo findings stay
 * current and are recalled.
 */
export const demoWorktreeView: WorktreeView = {
  hashOf: (path) => contentHash(`demo:${path}`),
  descendsFrom: () => true,
};

/**
 * A project folder as an agent sees it: a path's hash is the content hash of the file on disk
 * (undefined if it is missing or outside the folder). Ancestry is not read (no git), so an entry
 * that names a commit is "unknown" here and is not recalled.
 */
export function folderWorktreeView(root: string): WorktreeView {
  return {
    hashOf(path) {
      const full = normalize(join(root, path));
      const rel = relative(root, full);
      if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
      try {
        return contentHash(readFileSync(full, 'utf8'));
      } catch {
        return undefined;
      }
    },
    descendsFrom: () => undefined,
  };
}
