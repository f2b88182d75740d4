/**
 * What a recipient agent sees of the repository, for freshness checks (spec "Recalled project
 * memory": each entry must be current "in the recipient's own worktreeView"). A real workspace
 * hashes files on disk; the demo has a synthetic one.
 */
export interface WorktreeView {
  /** Content hash of a workspace-relative path in this view, or undefined if it does not exist. */
  hashOf(path: string): string | undefined;
  /**
   * Why `hashOf(path)` is undefined, in words a person can act on (missing, outside the workspace,
   * not a regular file, over the size cap); undefined when it has a hash or the view cannot say.
   */
  whyNoHash?(path: string): string | undefined;
  /** Whether this view's commit descends from `commit`; undefined when it cannot tell. */
  descendsFrom(commit: string): boolean | undefined;
}
