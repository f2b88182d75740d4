import { type FormEvent, useId, useState } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { selectSelectedSessionId } from '../../store/sessions/sessionsSelectors';
import './newConstraint.css';

type Outcome = { kind: 'added'; title: string; pinned: boolean } | { kind: 'error'; message: string } | null;

/**
 * "New constraint": a user types a requirement of the selected agent's task (`[user-constraint]`).
 * The host's intake decides; a refusal is shown and nothing is added. Pinned by default, so it is
 * in L1 of every agent from its next generation. Not offered for a watched (read-only) session.
 */
export function NewConstraint() {
  const controller = useController();
  const agentId = useStrata((s) => s.ui.selectedAgentId);
  const sessionId = useStrata(selectSelectedSessionId);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [pinned, setPinned] = useState(true);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const ids = useId();

  if (!agentId || sessionId) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() === '') {
      setOutcome({ kind: 'error', message: 'Type the constraint first: the text is empty.' });
      return;
    }
    setBusy(true);
    const r = await controller.addConstraint(agentId, { text, title: title.trim() || undefined, pinned });
    setBusy(false);
    if ('error' in r) {
      setOutcome({ kind: 'error', message: r.error });
      return;
    }
    setOutcome({ kind: 'added', title: r.item.title, pinned: r.item.pinned });
    setTitle('');
    setText('');
    setPinned(true);
    setOpen(false);
  };

  return (
    <section className="newc" aria-label="New constraint">
      {!open && (
        <button type="button" className="newc__open" onClick={() => { setOpen(true); setOutcome(null); }}>
          + New constraint
        </button>
      )}
      {outcome?.kind === 'added' && (
        <p className="newc__done" role="status">
          Added “{outcome.title}”{outcome.pinned ? ', pinned: it is in L1 of every agent from its next generation.' : ' (not pinned: it competes like any item).'}
        </p>
      )}
      {open && (
        <form className="newc__form" onSubmit={(e) => void submit(e)} aria-label="New constraint form">
          <label className="newc__label" htmlFor={`${ids}-title`}>
            Title <span className="newc__muted">(optional)</span>
          </label>
          <input id={`${ids}-title`} className="newc__input" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} placeholder="Constraint" />
          <label className="newc__label" htmlFor={`${ids}-text`}>
            Constraint <span className="newc__muted">for {agentId}’s task; every agent sees it</span>
          </label>
          <textarea id={`${ids}-text`} className="newc__input newc__text" value={text} rows={3} onChange={(e) => setText(e.target.value)} placeholder="e.g. Add no npm dependency without asking." />
          <label className="newc__check">
            <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} /> Pin it (always in the context, in L1)
          </label>
          {outcome?.kind === 'error' && (
            <p className="newc__error" role="alert">
              {outcome.message}
            </p>
          )}
          <div className="newc__actions">
            <button type="submit" className="newc__btn newc__btn--primary" disabled={busy}>
              {busy ? 'Adding…' : 'Add constraint'}
            </button>
            <button type="button" className="newc__btn" disabled={busy} onClick={() => { setOpen(false); setOutcome(null); }}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
