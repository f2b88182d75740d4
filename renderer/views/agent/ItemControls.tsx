import type { ItemDto } from '../../../engine/contract';
import { useController, useStrata } from '../../app/StoreContext';
import { itemKey } from '../../store/controlsSlice';
import { selectControl } from '../../store/agentViewSelectors';

/** Pin/unpin, verify, promote, promote to memory and remove for one pool item; each is one command. */
export function ItemControls({ item, removed }: { item: ItemDto; removed: boolean }) {
  const controller = useController();
  const pending = useStrata((s) => selectControl(s, itemKey(item.id))?.status === 'pending');
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
