import { useRef, useState } from 'react';
import { DEFAULT_ATTACH_BUDGET } from '../../../engine/shared/limits';
import { useStrata } from '../../controller/StoreContext';
import type { EngineStrategy } from '../../controller/sessionsController';
import { selectAttachedList } from '../../store/sessions/sessionsSelectors';
import { AttachedList } from './AttachedList';
import { DEFAULT_STRATEGY } from './attachForm';
import { SessionPicker } from './SessionPicker';
import './attach.css';

/**
 * The rail's attach entry, above the agent tree: "Attach session…" opens the picker of session
 * files on the host's machine; the attached sessions are listed below it. The strategy and budget
 * live here so closing and reopening the picker keeps what the operator chose.
 */
export function AttachSessions() {
  const [open, setOpen] = useState(false);
  const [strategy, setStrategy] = useState<EngineStrategy>(DEFAULT_STRATEGY);
  const [budgetText, setBudgetText] = useState(String(DEFAULT_ATTACH_BUDGET));
  const count = useStrata((s) => selectAttachedList(s).length);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <section className="attach" aria-label="Live sessions">
      <div className="attach__head">
        <button ref={toggle} type="button" className="btn attach__toggle" aria-expanded={open} aria-controls="attach-picker" onClick={() => setOpen((o) => !o)}>
          Attach session…
        </button>
        <span className="muted attach__count">{count === 0 ? 'Watch a Claude Code or Codex session live' : `${count} attached`}</span>
      </div>
      {open && <SessionPicker id="attach-picker" strategy={strategy} budgetText={budgetText} onStrategy={setStrategy} onBudget={setBudgetText} onClose={close} />}
      <AttachedList />
    </section>
  );
}
