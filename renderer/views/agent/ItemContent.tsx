import type { ReactNode } from 'react';
import type { ItemDto } from '../../../engine/contract';
import { tokens } from '../../components/format';
import { matchRanges } from '../../store/generations/groupDuplicates';
import { provenanceLine } from './provenance';

/** The selected item's whole text, with the search's matches marked, its provenance and tokens. */
export function ItemContent({ item, tokenCount, query, onClose }: { item: ItemDto; tokenCount: number | null; query: string; onClose(): void }) {
  const ranges = matchRanges(item.content, query);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [from, to] of ranges) {
    if (from > at) parts.push(item.content.slice(at, from));
    parts.push(<mark key={from}>{item.content.slice(from, to)}</mark>);
    at = to;
  }
  parts.push(item.content.slice(at));
  return (
    <aside className="item-pane" aria-label="Item content" data-item-id={item.id}>
      <div className="item-pane__head">
        <b className="item-pane__title">{item.title || item.id}</b>
        <span className={`tag tag--${item.class}`}>{item.class}</span>
        {tokenCount !== null && <span className="item__num">{tokens(tokenCount)} tokens</span>}
        {query.trim() !== '' && <span className="item__num" role="status">{ranges.length} match{ranges.length === 1 ? '' : 'es'}</span>}
        <button className="btn btn--small item-pane__close" onClick={onClose} aria-label="Close the item content" title="Close the item content">
          close
        </button>
      </div>
      <div className="item__prov">
        {item.id} · {item.provenance.source} · {provenanceLine(item)}
      </div>
      <pre className="item-pane__text" tabIndex={0} aria-label={`Content of ${item.title || item.id}`}>
        {parts}
      </pre>
    </aside>
  );
}
