import { useEffect, useRef } from 'react';
import type { AgentImpactDto } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { percent, tokens } from '../../components/format';
import type { AskedControl } from '../../store/controls/controlsActions';
import type { PendingConfirm } from '../../store/controls/controlsSlice';
import type { RootState } from '../../store/reduce';

const selectConfirm = (s: RootState): PendingConfirm | null => s.controls.confirm;

const QUESTION: Record<AskedControl, (title: string) => string> = {
  remove: (t) => `Remove “${t}” from the pool?`,
  verify: (t) => `Verify “${t}”?`,
  promote: (t) => `Make “${t}” a finding?`,
};

/** What the control does beyond the caches, and whether it can be taken back. */
const CONSEQUENCE: Record<AskedControl, string> = {
  remove: 'Removing cannot be undone here; restoring a past generation that held it brings it back.',
  verify: 'Verifying cannot be undone: no control marks an item unverified again.',
  promote: 'Making it a finding cannot be undone: its class and kind change for every agent (an objective or constraint leaves L1).',
};

const ACTION: Record<AskedControl, string> = { remove: 'Remove', verify: 'Verify', promote: 'Make it a finding' };

function ImpactRow({ a }: { a: AgentImpactDto }) {
  return (
    <tr data-agent-id={a.agentId}>
      <td>{a.agentId}</td>
      <td>g{a.generation}{a.layer ? ` · ${a.layer}` : ''}</td>
      <td>{a.when === 'next build' ? 'new generation at its next build' : 'shows at its next boundary'}</td>
      <td className="num">
        {tokens(a.lostTokens)} of {tokens(a.promptTokens)} ({percent(a.promptTokens > 0 ? a.lostTokens / a.promptTokens : 0)})
      </td>
    </tr>
  );
}

/**
 * The question an item control asks before it is used (`[change-preview]`): which agents it makes
 * start a new generation or change at their next boundary, and how many tokens of their cached prompt
 * the provider stops serving; the control runs only on the operator's yes. Escape cancels.
 */
export function ConfirmChange() {
  const confirm = useStrata(selectConfirm);
  const controller = useController();
  // Focus goes to Cancel, the choice that changes nothing; Enter on it never removes by accident.
  const cancel = useRef<HTMLButtonElement>(null);
  const asked = confirm ? `${confirm.itemId}\u0000${confirm.change}` : null;
  useEffect(() => {
    if (asked !== null) cancel.current?.focus();
  }, [asked]);
  if (!confirm) return null;
  const { change, title, agents, status } = confirm;
  const lost = agents.reduce((n, a) => n + a.lostTokens, 0);
  return (
    <div
      className="confirm"
      role="alertdialog"
      aria-label={QUESTION[change](title)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') controller.cancelChange();
      }}
    >
      <p className="confirm__question">
        <b>{QUESTION[change](title)}</b> {CONSEQUENCE[change]}
      </p>
      {status === 'loading' && <p className="muted" role="status">Checking which agents this touches…</p>}
      {status === 'error' && (
        <p className="notice notice--error" role="alert">
          {confirm.error}
        </p>
      )}
      {status === 'ready' &&
        (agents.length === 0 ? (
          <p className="confirm__none" role="status">No agent’s current generation holds it: no agent starts a new generation and no cached prompt is lost.</p>
        ) : (
          <>
            <p className="confirm__summary" role="status">
              {agents.length} agent{agents.length === 1 ? '' : 's'} affected; their caches lose {tokens(lost)} tokens in all.
            </p>
            <table className="table confirm__table" aria-label="Agents affected">
              <thead>
                <tr>
                  <th scope="col">agent</th>
                  <th scope="col">holds it in</th>
                  <th scope="col">what happens</th>
                  <th scope="col" className="num">cached tokens lost</th>
                </tr>
              </thead>
              <tbody>
                {agents.map((a) => (
                  <ImpactRow key={a.agentId} a={a} />
                ))}
              </tbody>
            </table>
          </>
        ))}
      <div className="confirm__actions">
        <button className={`btn btn--small${change === 'remove' ? ' btn--danger' : ''}`} disabled={status === 'loading'} onClick={() => void controller.confirmChange()}>
          {ACTION[change]}
        </button>
        <button ref={cancel} className="btn btn--small" onClick={() => controller.cancelChange()}>
          Cancel
        </button>
      </div>
    </div>
  );
}
