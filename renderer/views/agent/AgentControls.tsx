import { useState } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { agentKey } from '../../store/controls/controlsSlice';
import { selectControl } from '../../store/controls/controlsSelectors';
import type { RootState } from '../../store/reduce';
import { Outcome } from './Outcome';

const NOT_BUILT = 'Not built yet: this agent has no generation to refresh or rebuild; it builds at its first turn.';

/**
 * False when the agent has no generation: its row says generation 0, or its generation list loaded
 * empty (a seeded agent's row may name generation 1 before the engine ever built it).
 */
const selectBuilt = (s: RootState, agentId: string): boolean => {
  if ((s.agents.byId[agentId]?.generation ?? 0) <= 0) return false;
  const g = s.generations;
  return !(g.agentId === agentId && g.list.status === 'ready' && g.list.value.length === 0);
};

/**
 * Refresh context and rebuild context of one agent, with an optional refresh reason and the outcome
 * inline. For an agent never built both are off, saying why in their tooltip (the inspector says it once on the page).
 */
export function AgentControls({ agentId }: { agentId: string }) {
  const controller = useController();
  const [reason, setReason] = useState('');
  const pending = useStrata((s) => selectControl(s, agentKey(agentId))?.status === 'pending');
  const built = useStrata((s) => selectBuilt(s, agentId));
  const off = pending || !built;
  return (
    <div className="agent-controls">
      <input
        className="input agent-controls__reason"
        aria-label="Refresh reason"
        placeholder="reason (optional)"
        value={reason}
        maxLength={500}
        disabled={!built}
        onChange={(e) => setReason(e.target.value)}
      />
      <button
        className="btn"
        disabled={off}
        onClick={() => void controller.refresh(agentId, reason.trim() || undefined)}
        title={built ? 'Refresh the context: carry the durable state, drop this agent’s tool output and history, start a new generation (L2 misses the cache)' : NOT_BUILT}
      >
        Refresh context
      </button>
      <button
        className="btn"
        disabled={off}
        onClick={() => void controller.rebuild(agentId)}
        title={built ? 'Rebuild the context: start a new generation now, re-packed from the pool (keeps the cached prefix where nothing changed)' : NOT_BUILT}
      >
        Rebuild context
      </button>
      <Outcome target={agentKey(agentId)} className="agent-controls__outcome" />
    </div>
  );
}
