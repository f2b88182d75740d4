import type { ItemDto } from '../../../engine/contract';
import { useController } from '../../controller/StoreContext';

/**
 * Pin/unpin, verify, make a finding, propose to memory and remove for one pool item; each is one
 * command, and each says what it does on its face and in its tooltip. Verify, make a finding and
 * remove cannot be taken back: they ask first, showing the agents they touch (`ConfirmChange`). `pending`: a control on this
 * item is in flight (the list selects the outcomes once for all rows). `offReason`: why no control
 * applies (a past generation, an item the pool let go): all are off and say so.
 */
export function ItemControls({ item, removed, pending, offReason = null }: { item: ItemDto; removed: boolean; pending: boolean; offReason?: string | null }) {
  const controller = useController();
  const off = pending || removed || offReason !== null;
  const why = (title: string) => offReason ?? title;
  const name = item.title || item.id;
  const finding = item.class === 'finding';
  return (
    <span className="item-controls" role="group" aria-label={`Controls of ${item.id}`}>
      {item.pinned ? (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.unpin(item.id)} aria-label={`Unpin ${name}`} title={why('Unpin: from each agent’s next boundary it competes like any item (every built agent rebuilds)')}>
          unpin
        </button>
      ) : (
        <button className="btn btn--small" disabled={off} onClick={() => void controller.pin(item.id)} aria-label={`Pin ${name}`} title={why('Pin: enters every agent’s context whole, in L1 (every built agent rebuilds at its next build)')}>
          pin
        </button>
      )}
      <button
        className="btn btn--small"
        disabled={off || item.provenance.verified}
        onClick={() => void controller.askChange(item.id, 'verify', name)}
        aria-label={`Verify ${name}`}
        title={why(item.provenance.verified ? 'Already verified' : 'Verify: mark exactly this item verified in the pool (prompts show it from the next boundary)')}
      >
        verify
      </button>
      <button
        className="btn btn--small"
        disabled={off || finding}
        onClick={() => void controller.askChange(item.id, 'promote', name)}
        aria-label={`Promote ${name} to a finding`}
        title={why(finding ? 'Already a finding' : 'Make it a finding: the pool keeps it as a task finding (class and kind change; it may leave L1 at the next boundary)')}
      >
        to finding
      </button>
      <button className="btn btn--small" disabled={off} onClick={() => void controller.promoteToMemory(item.id)} aria-label={`Promote ${name} to memory`} title={why('Propose to project memory: an unverified candidate you verify in the Memory view')}>
        to memory
      </button>
      <button className="btn btn--small btn--danger" disabled={off} onClick={() => void controller.askChange(item.id, 'remove', name)} aria-label={`Remove ${name}`} title={why('Remove from the pool: agents holding it rebuild at their next build')}>
        remove
      </button>
    </span>
  );
}
