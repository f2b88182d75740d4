import type { ItemDto } from '../../../engine/contract';
import { useController } from '../../controller/StoreContext';

/**
 * Pin/unpin, verify, promote, promote to memory and remove for one pool item; each is one command.
 * `pending`: a control on this item is in flight (the list selects the outcomes once for all rows).
 */
export function ItemControls({ item, removed, pending }: { item: ItemDto; removed: boolean; pending: boolean }) {
  const controller = useController();
  const off = pending || removed;
  const name = item.title || item.id;
  return (
    <span className="item-controls" role="group" aria-label={`Controls of ${item.id}`}>
      {item.pinned ? (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.unpin(item.id)} aria-label={`Unpin ${name}`} title="Unpin from the next boundary">
          unpin
        </button>
      ) : (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.pin(item.id)} aria-label={`Pin ${name}`} title="Pin: enters every context whole, in L1">
          pin
        </button>
      )}
      <button className="btn btn--small" disabled={off || item.provenance.verified} onClick={() => void controller.verify(item.id)} aria-label={`Verify ${name}`} title="Mark exactly this item verified">
        verify
      </button>
      <button className="btn btn--small" disabled={off} onClick={() => void controller.promote(item.id)} aria-label={`Promote ${name}`} title="Promote into the pool as a finding">
        promote
      </button>
      <button className="btn btn--small" disabled={off} onClick={() => void controller.promoteToMemory(item.id)} aria-label={`Promote ${name} to memory`} title="Propose to project memory as an unverified candidate">
        ↑mem
      </button>
      <button className="btn btn--small btn--danger" disabled={off} onClick={() => void controller.remove(item.id)} aria-label={`Remove ${name}`} title="Remove from the pool">
        ✕
      </button>
    </span>
  );
}
