import { useState } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { agentKey } from '../../store/controls/controlsSlice';
import { selectControl } from '../../store/controls/controlsSelectors';
import { Outcome } from './Outcome';

/** Refresh and rebuild of one agent, with an optional refresh reason and the outcome inline. */
export function AgentControls({ agentId }: { agentId: string }) {
  const controller = useController();
  const [reason, setReason] = useState('');
  const pending = useStrata((s) => selectControl(s, agentKey(agentId))?.status === 'pending');
  return (
    <div className="agent-controls">
      <input
        className="input agent-controls__reason"
        aria-label="Refresh reason"
        placeholder="reason (optional)"
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
      />
      <button className="btn" disabled={pending} onClick={() => void controller.refresh(agentId, reason.trim() || undefined)} title="Carry durable state, drop ephemeral items, start a new generation">
        Refresh
      </button>
      <button className="btn" disabled={pending} onClick={() => void controller.rebuild(agentId)} title="Start a new generation now, re-packed from the pool">
        Rebuild
      </button>
      <Outcome target={agentKey(agentId)} className="agent-controls__outcome" />
    </div>
  );
}
