import { useState } from 'react';
import type { AgentStatus } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { agentKey } from '../../store/controls/controlsSlice';
import { selectControl } from '../../store/controls/controlsSelectors';
import type { RootState } from '../../store/reduce';
import { Outcome } from './Outcome';

const ENDED: readonly AgentStatus[] = ['done', 'failed'];

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
 * Refresh context and rebuild context of one agent, with an optional refresh reason (for an agent
 * never built both are off, saying why in their tooltip; the inspector says it once on the page);
 * pause or resume it in the run, or cancel it (asked twice: a cancelled agent takes no more turns);
 * the outcome inline.
 */
export function AgentControls({ agentId }: { agentId: string }) {
  const controller = useController();
  const [reason, setReason] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const pending = useStrata((s) => selectControl(s, agentKey(agentId))?.status === 'pending');
  const status = useStrata((s) => s.agents.byId[agentId]?.status);
  const ended = status === undefined || ENDED.includes(status);
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
      <span className="agent-controls__run" role="group" aria-label="Agent in the run">
        {status === 'paused' ? (
          <button className="btn btn--primary" disabled={pending} onClick={() => void controller.controlAgent(agentId, 'resume')} title="Let the agent take turns again">
            ▶ Resume agent
          </button>
        ) : (
          <button className="btn" disabled={pending || ended} onClick={() => void controller.controlAgent(agentId, 'pause')} title="Skip this agent's turns until resumed (the turn in flight finishes)">
            ❚❚ Pause agent
          </button>
        )}
        {confirmCancel ? (
          <>
            <button
              className="btn btn--danger"
              disabled={pending}
              onClick={() => {
                setConfirmCancel(false);
                void controller.controlAgent(agentId, 'cancel');
              }}
            >
              Cancel {agentId} for good
            </button>
            <button className="btn" onClick={() => setConfirmCancel(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button className="btn" disabled={pending || ended} onClick={() => setConfirmCancel(true)} title="End this agent: a turn in flight commits nothing and it takes no more turns (asks first)">
            ✕ Cancel agent…
          </button>
        )}
      </span>
      <Outcome target={agentKey(agentId)} className="agent-controls__outcome" />
    </div>
  );
}
