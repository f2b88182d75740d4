import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { PURGE_CONFIRMATION, RESIDUAL_EXPOSURE } from '../../../engine/shared/purgePolicy';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), [href], select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The confirmation before purging project memory: says what a purge does and what it cannot
 * promise, and purges only once the confirmation words are typed. Focus stays inside while it is
 * open (Tab wraps), Escape cancels, and focus returns to what opened it.
 */
export function PurgeDialog({ entries, purging, onConfirm, onClose }: { entries: number; purging: boolean; onConfirm(words: string): void; onClose(): void }) {
  const [typed, setTyped] = useState('');
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    input.current?.focus();
    return () => opener?.focus?.();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (items.length === 0) return;
    const first = items[0] as HTMLElement;
    const last = items[items.length - 1] as HTMLElement;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  const confirmed = typed.trim() === PURGE_CONFIRMATION;

  return (
    <div className="mem__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} className="mem__dialog" role="dialog" aria-modal="true" aria-labelledby="purge-title" aria-describedby="purge-policy" onKeyDown={onKeyDown}>
        <h2 id="purge-title" className="mem__dialog-title">
          Purge project memory?
        </h2>
        <p>
          This deletes {entries === 1 ? 'the 1 entry' : `all ${entries} entries`} of this workspace’s project memory, in every state, and their copies recalled into the context pool. It cannot be undone.
        </p>
        <p id="purge-policy" className="mem__policy" data-testid="residual-policy">
          <strong>What a purge cannot promise:</strong> {RESIDUAL_EXPOSURE}
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (confirmed && !purging) onConfirm(PURGE_CONFIRMATION);
          }}
        >
          <label htmlFor="purge-words" className="mem__label">
            Type <kbd>{PURGE_CONFIRMATION}</kbd> to confirm
          </label>
          <input id="purge-words" ref={input} className="mem__input" autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
          <div className="mem__dialog-actions">
            <button type="button" className="mem__btn" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="mem__btn mem__btn--danger" disabled={!confirmed || purging}>
              {purging ? 'Purging…' : 'Purge memory'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
