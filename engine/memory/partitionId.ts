import { contentHash } from '../text/hash';

/**
 * The memory partition of a workspace: `ws_` and the 16 hex digits of `contentHash(workspaceKey)`.
 * Deterministic, so the same workspace always reads and writes the same partition; opaque, so a
 * raw workspace path never reaches the catalog (the guard triggers refuse any other form, see
 * `PARTITION_PATTERN`). The hash is not a secret: anyone who can guess a path can confirm it, so
 * the id hides a path from a reader of the file, not from someone who already knows it. Callers
 * pass an already canonical key (one spelling per workspace), or one workspace gets two partitions:
 * the host keys a workspace through `workspacePartition` (its real path at the first open, then
 * the id kept in the catalog), never through the path as spelled.
 */
export function partitionId(workspaceKey: string): string {
  return `ws_${contentHash(workspaceKey)}`;
}

/**
 * A memory id: `mem_` and the 16 hex digits of `contentHash(seed)`, which `MEMORY_ID_PATTERN`
 * accepts. The seed is injected (time, counter or content, chosen by the store) so ids are
 * reproducible in tests and the engine needs no randomness of its own.
 */
export function newMemoryId(seed: string): string {
  return `mem_${contentHash(seed)}`;
}
