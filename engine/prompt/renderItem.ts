import type { ContextItem } from '../items/ContextItem';

/**
 * One item as prompt text. Deterministic and free of timestamps, ids of the moment and counters
 * (`[L1-stable]`): only the title, what kind of evidence it is, the files and the content.
 */
export function renderItem(item: ContextItem): string {
  const p = item.provenance;
  const evidence = [item.kind, p.source.replace(/_/g, ' '), p.verified ? 'verified' : 'unverified'];
  const files = p.files.length > 0 ? `\nfiles: ${p.files.join(', ')}` : '';
  // ASCII separators: the prompt's byte arithmetic has a fast path for ASCII text.
  return `### ${item.title}\n[${evidence.join(' | ')}]${files}\n${item.content.trimEnd()}\n`;
}
