import { useState } from 'react';
import type { AgentStatus } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { agentKey } from '../../store/controls/controlsSlice';
import { selectControl } from '../../store/controls/controlsSelectors';
import { Outcome } from './Outcome';

const ENDED: readonly AgentStatus[] = ['done', 'failed'];

/**
 * Refresh and rebuild of one agent, with an optional refresh reason; pause or resume it in the run,
 * or cancel it (asked twice: a cancelled agent takes no more turns); the outcome inline.
 */
export function AgentControls({ agentId }: { agentId: string }) {
  const controller = useController();
  const [reason, setReason] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const pending = useStrata((s) => selectControl(s, agentKey(agentId))?.status === 'pending');
  const status = useStrata((s) => s.agents.byId[agentId]?.status);
  const ended = status === undefined || ENDED.includes(status);
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
