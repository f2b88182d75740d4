import type { ItemDto } from '../../../engine/contract';
import { useController } from '../../controller/StoreContext';

/**
 * Pin/unpin, verify, promote, promote to memory and remove for one pool item; each is one command.
 * `pending`: a control on this item is in flight (the list selects the outcomes once for all rows).
 * `offReason`: why no control applies (a past generation, an item the pool let go): all are off and say so.
 */
export function ItemControls({ item, removed, pending, offReason = null }: { item: ItemDto; removed: boolean; pending: boolean; offReason?: string | null }) {
  const controller = useController();
  const off = pending || removed || offReason !== null;
  const why = (title: string) => offReason ?? title;
  const name = item.title || item.id;
  return (
    <span className="item-controls" role="group" aria-label={`Controls of ${item.id}`}>
      {item.pinned ? (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.unpin(item.id)} aria-label={`Unpin ${name}`} title={why('Unpin from the next boundary')}>
          unpin
        </button>
      ) : (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.pin(item.id)} aria-label={`Pin ${name}`} title={why('Pin: enters every context whole, in L1')}>
          pin
        </button>
      )}
      <button className="btn btn--small" disabled={off || item.provenance.verified} onClick={() => void controller.verify(item.id)} aria-label={`Verify ${name}`} title={why('Mark exactly this item verified')}>
        verify
      </button>
      <button className="btn btn--small" disabled={off} onClick={() => void controller.promote(item.id)} aria-label={`Promote ${name}`} title={why('Promote into the pool as a finding')}>
        promote
      </button>
      <button className="btn btn--small" disabled={off} onClick={() => void controller.promoteToMemory(item.id)} aria-label={`Promote ${name} to memory`} title={why('Propose to project memory as an unverified candidate')}>
        ↑mem
      </button>
      <button className="btn btn--small btn--danger" disabled={off} onClick={() => void controller.remove(item.id)} aria-label={`Remove ${name}`} title={why('Remove from the pool')}>
        ✕
      </button>
    </span>
  );
}
