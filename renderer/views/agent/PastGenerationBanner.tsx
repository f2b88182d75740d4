import { useController, useStrata } from '../../controller/StoreContext';
import { agentKey } from '../../store/controls/controlsSlice';
import { selectControl } from '../../store/controls/controlsSelectors';

/**
 * Shown while the operator inspects a generation older than the current one: which one, that its
 * item controls are off (they act on the pool as it is now), the way back to the current one, and
 * restoring from it (`[restore-generation]`) unless the agent is watched read-only.
 */
export function PastGenerationBanner({ agentId, viewed, current, readOnly }: { agentId: string; viewed: number; current: number; readOnly: boolean }) {
  const controller = useController();
  const pending = useStrata((s) => selectControl(s, agentKey(agentId))?.status === 'pending');
  return (
    <div className="past-banner" role="region" aria-label="Past generation">
      <p className="past-banner__text">
        <b>You are viewing generation {viewed}</b> of {agentId}; the agent is on generation {current}. Item controls are off here: they act on the pool as it is now.
      </p>
      <button className="btn btn--small" onClick={() => void controller.viewGeneration(null)} title={`Inspect the current generation, ${current}`}>
        Back to current (g{current})
      </button>
      {!readOnly && (
        <button
          className="btn btn--small"
          disabled={pending}
          onClick={() => void controller.restoreGeneration(viewed)}
          title={`Bring back into the pool the items generation ${viewed} included that have left it, then start a new generation now, packed afresh from the pool`}
        >
          Restore from g{viewed}
        </button>
      )}
    </div>
  );
}

