import type { Generation } from '../generations/Generation';
import type { ContextItem } from '../items/ContextItem';
import { PURGED_TEXT } from '../node/memoryStore/MemoryStore';
import type { PromptLayers } from '../prompt/composeParts';

/** The memory entry a recalled copy quotes (`recall:<agent>:<memory id>`), or undefined for any other item. */
function recalledEntry(item: ContextItem): string | undefined {
  if (item.provenance.source !== 'recalled_memory' || !item.id.startsWith('recall:')) return undefined;
  return item.id.slice(item.id.lastIndexOf(':') + 1);
}

/** A purged recalled copy as the inspector shows it: its id and place, none of its text. */
function purgedCopy(item: ContextItem): ContextItem {
  return Object.freeze({ ...item, title: `${item.id} (purged)`, content: PURGED_TEXT, contentHash: '', provenance: { ...item.provenance, files: [], symbols: [] } });
}

/**
 * A generation as the inspector may show it after a purge (`[erasure]`): an entry whose item is a
 * recalled copy of a memory entry that no longer exists shows `PURGED_TEXT` instead of the text,
 * and the prompt's layers have that text replaced too. The engine keeps an emitted generation as it
 * was built (L2 only appends), so an agent that never builds again would otherwise go on showing
 * purged text. Unchanged (the same objects) when nothing was purged.
 */
export function withoutPurgedRecall<L extends PromptLayers | undefined>(g: Generation, layers: L, exists: (memoryId: string) => boolean): { generation: Generation; layers: L } {
  const purged = (item: ContextItem) => {
    const entry = recalledEntry(item);
    return entry !== undefined && !exists(entry);
  };
  const texts = new Set<string>();
  const included = g.included.map((e) => {
    if (!purged(e.item)) return e;
    texts.add(e.item.content);
    return { ...e, item: purgedCopy(e.item) };
  });
  const dropped = g.dropped.map((d) => (purged(d.item) ? { ...d, item: purgedCopy(d.item) } : d));
  const changed = texts.size > 0 || dropped.some((d, k) => d !== g.dropped[k]);
  if (!changed) return { generation: g, layers };
  const scrub = (s: string) => [...texts].reduce((acc, t) => (t === '' ? acc : acc.split(t).join(PURGED_TEXT)), s);
  const cleaned = layers === undefined ? layers : ({ ...layers, L0: scrub(layers.L0), L1: scrub(layers.L1), L2: scrub(layers.L2), L3: scrub(layers.L3) } as L);
  return { generation: { ...g, included, dropped }, layers: cleaned };
}
