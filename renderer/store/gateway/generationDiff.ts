import type { GatewaySessionDetailDto } from '../../../engine/contract';

type Generation = GatewaySessionDetailDto['threads'][number]['generations'][number];
type Compressed = Generation['compressed'][number];
type Dropped = Generation['dropped'][number];

/** What changed from one manage-mode generation to the next, as plain values the view lists. */
export interface GatewayGenerationDiff {
  /** Items compressed now that were not before (newly placeholdered results). */
  compressed: Compressed[];
  /** Items dropped now that were not before. */
  dropped: Dropped[];
  /** Items compressed or dropped before that are whole again (pinned, restored, or back in the window). */
  cameBack: string[];
  /** Items in the request now that were not in the previous generation at all. */
  added: string[];
}

/**
 * The diff of `next` against `previous` (`previous` undefined for a thread's first generation:
 * everything it compressed or dropped is new). Keys are tool call ids, so an item keeps its key
 * across generations.
 */
export function gatewayGenerationDiff(previous: Generation | undefined, next: Generation): GatewayGenerationDiff {
  const before = {
    included: new Set(previous?.included ?? []),
    compressed: new Set((previous?.compressed ?? []).map((c) => c.key)),
    dropped: new Set((previous?.dropped ?? []).map((d) => d.key)),
  };
  const nowCompressed = new Set(next.compressed.map((c) => c.key));
  const nowDropped = new Set(next.dropped.map((d) => d.key));
  const wasKnown = (key: string) => before.included.has(key) || before.compressed.has(key) || before.dropped.has(key);
  return {
    compressed: next.compressed.filter((c) => !before.compressed.has(c.key)),
    dropped: next.dropped.filter((d) => !before.dropped.has(d.key)),
    cameBack: [...before.compressed, ...before.dropped].filter((key) => !nowCompressed.has(key) && !nowDropped.has(key) && next.included.includes(key)),
    added: previous ? next.included.filter((key) => !wasKnown(key)) : [],
  };
}
