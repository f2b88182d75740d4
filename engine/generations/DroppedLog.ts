/**
 * A generation's live dropped log (`pack/DroppedLog.ts`), kept beside the generation object, and
 * the lazy copies of its entries a snapshot carries.
 */
import { DroppedLog } from '../pack/DroppedLog';
import type { DroppedEntry, Generation } from './Generation';

const logs = new WeakMap<Generation, DroppedLog>();

/**
 * Give a live generation its log: `generation.dropped` then reads the log (materializing it) and
 * `droppedTotal` counts everything ever dropped, also after an ended generation is truncated.
 */
export function attachDroppedLog(g: Generation, log: DroppedLog): void {
  logs.set(g, log);
  Object.defineProperty(g, 'dropped', { enumerable: true, configurable: true, get: () => log.all() });
}

export function droppedLogOf(g: Generation): DroppedLog | undefined {
  return logs.get(g);
}

/** Define `dropped` on a snapshot as a lazy copy of the first `count` entries of the live list. */
export function lazyDroppedCopy(copy: Generation, live: Generation, count: number): void {
  let cached: DroppedEntry[] | undefined;
  Object.defineProperty(copy, 'dropped', {
    enumerable: true,
    configurable: true,
    get: () => (cached ??= live.dropped.slice(0, count)),
  });
}
