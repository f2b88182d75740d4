import type { WorktreeView } from '../memory/recall/WorktreeView';
import { contentHash } from '../text/hash';
import { readEvidenceFile } from '../node/workspace/readEvidenceFile';

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
 * A project folder as an agent sees it: a path's hash is the content hash of the file on disk,
 * read by `readEvidenceFile` (undefined when it is missing, outside the folder by its real path,
 * not a regular file, or over the evidence cap: such an entry is "unknown" here, never recalled,
 * and no read can block or grow the host). Ancestry is not read (no git), so an entry that names a
 * commit is "unknown" here and is not recalled.
 */
export function folderWorktreeView(root: string): WorktreeView {
  return {
    hashOf(path) {
      const read = readEvidenceFile(root, path);
      return read.ok ? contentHash(read.text) : undefined;
    },
    whyNoHash(path) {
      const read = readEvidenceFile(root, path);
      return read.ok ? undefined : read.reason;
    },
    descendsFrom: () => undefined,
  };
}
