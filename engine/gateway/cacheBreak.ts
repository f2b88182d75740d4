import { reuseRatio } from '../metrics/prefixReuse';
import type { CacheBreak, RequestBlock } from './types';

/**
 * Where a thread's prompt cache broke at a call (`[gateway-cache-break]`): the first block of this
 * request whose hash differs from the block at the same place in the thread's previous request.
 * `at` is that block's key, or:
 * - `first call` when the thread has no previous request;
 * - `model` when the model changed (a cache is per model: nothing is reusable);
 * - `appended` when every block of the previous request is unchanged and new ones follow;
 * - `unchanged` when the request equals the previous one block for block (a retry);
 * - `<key> removed` when the request is a strict prefix of the previous one (a rewind), naming the
 *   first block that is gone.
 * `unchangedBytes` is the bytes of the blocks before the break, the part a cache could serve.
 */
export function cacheBreak(previous: readonly RequestBlock[] | undefined, blocks: readonly RequestBlock[], providerReason?: string, models?: { previous: string; current: string }): CacheBreak {
  const result = (at: string, blockIndex: number, unchangedBytes: number): CacheBreak => (providerReason === undefined ? { at, blockIndex, unchangedBytes } : { at, blockIndex, unchangedBytes, providerReason });
  if (previous === undefined) return result('first call', -1, 0);
  if (models && models.previous !== models.current) return result('model', 0, 0);
  const common = commonBlocks(previous, blocks);
  const unchangedBytes = bytesOf(blocks, common);
  if (common < blocks.length && common < previous.length) return result(blocks[common]!.key, common, unchangedBytes);
  if (common < blocks.length) return result('appended', common, unchangedBytes);
  if (common < previous.length) return result(`${previous[common]!.key} removed`, common, unchangedBytes);
  return result('unchanged', common, unchangedBytes);
}

/** How many leading blocks two requests share (same key and hash). */
export function commonBlocks(a: readonly RequestBlock[], b: readonly RequestBlock[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i]!.hash === b[i]!.hash && a[i]!.key === b[i]!.key) i++;
  return i;
}

/** Bytes of the first `n` blocks (all of them by default): a request's size is the sum of its blocks'. */
export function bytesOf(blocks: readonly RequestBlock[], n = blocks.length): number {
  let bytes = 0;
  for (let i = 0; i < n; i++) bytes += blocks[i]!.bytes;
  return bytes;
}

/**
 * Prefix reuse of a call (`[gateway-prefix-reuse]`, the gateway's `[prefix-reuse-def]`): the bytes
 * of its leading blocks unchanged since the thread's previous request over all its bytes, 0 on a
 * thread's first call. Measured at block granularity, as providers cache.
 */
export function blockPrefixReuse(brk: CacheBreak, blocks: readonly RequestBlock[]): number {
  return reuseRatio(brk.unchangedBytes, bytesOf(blocks));
}
