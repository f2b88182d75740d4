import type { IncludedDto, ItemDto } from '../../../engine/contract';

/** Included entries that show as one row: one entry, or the copies of the same thing. */
export interface EntryGroup {
  key: string;
  entries: IncludedDto[];
  tokens: number;
}

/** Tool results: a file read again or a command rerun has the same kind and title (its text may differ). */
const TOOL_KINDS = new Set(['code', 'tool_output']);

/**
 * Copies of the same thing are one group: tool results of the same kind and title (the same file
 * read again, the same command rerun), and any items with the same content.
 */
const groupKey = (item: ItemDto) => (TOOL_KINDS.has(item.kind) ? `tool\u0000${item.kind}\u0000${item.title || item.id}` : `content\u0000${item.contentHash}`);

/** Group entries in their order: a group sits where its first entry was, and keeps its entries' order. */
export function groupDuplicates(entries: readonly IncludedDto[]): EntryGroup[] {
  const groups = new Map<string, EntryGroup>();
  for (const e of entries) {
    const key = groupKey(e.item);
    const g = groups.get(key);
    if (g) {
      g.entries.push(e);
      g.tokens += e.tokens;
    } else groups.set(key, { key, entries: [e], tokens: e.tokens });
  }
  return [...groups.values()];
}

/** True when the item's title, id, source, files or content contain `query` (case-insensitive; an empty query matches). */
export function itemMatches(item: ItemDto, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return [item.title, item.id, item.provenance.source, ...item.provenance.files, item.content].some((t) => t.toLowerCase().includes(q));
}

/** Where `query` occurs in `text` (case-insensitive), as [start, end) ranges, at most `limit`. */
export function matchRanges(text: string, query: string, limit = 500): [number, number][] {
  const q = query.trim().toLowerCase();
  if (q === '') return [];
  const lower = text.toLowerCase();
  const out: [number, number][] = [];
  for (let at = lower.indexOf(q); at >= 0 && out.length < limit; at = lower.indexOf(q, at + q.length)) out.push([at, at + q.length]);
  return out;
}
