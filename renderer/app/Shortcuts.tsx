import { useContext, useEffect, useRef } from 'react';
import { StoreContext, useDispatch, useStrata } from '../controller/StoreContext';
import { shortcutAction, shortcutList } from './shortcuts';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** A modal dialog other than the shortcut list is open (the purge confirmation, a confirm-change): keys are its own. */
const otherDialogOpen = () => document.querySelector('[aria-modal="true"]:not(.shortcuts__dialog), [role="alertdialog"]') !== null;

/** The control room's keyboard shortcuts on the window (see shortcuts.ts); the desktop menu keeps its own. */
export function useShortcuts(): void {
  const store = useContext(StoreContext);
  useEffect(() => {
    if (!store) return;
    const mac = isMac();
    const onKey = (e: KeyboardEvent) => {
      const s = store.getState();
      const actions = shortcutAction(e, s.ui, { mac, desktop: s.connection.transport === 'electron', otherDialogOpen: otherDialogOpen() });
      if (!actions) return;
      e.preventDefault();
      for (const a of actions) s.dispatch(a);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/** The "?" list of shortcuts: a modal dialog; Escape, the button or a click outside closes it and focus goes back. */
export function ShortcutsDialog() {
  const open = useStrata((s) => s.ui.shortcutsDialog);
  const desktop = useStrata((s) => s.connection.transport === 'electron');
  const dispatch = useDispatch();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => opener?.focus?.();
  }, [open]);
  if (!open) return null;
  const mac = isMac();
  const shut = () => dispatch({ type: 'shortcuts.dialog', open: false });
  return (
    <div className="shortcuts" onMouseDown={(e) => e.target === e.currentTarget && shut()}>
      <div
        className="shortcuts__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onKeyDown={(e) => {
          // Focus stays on the one button: Tab has nowhere else to go.
          if (e.key === 'Tab') e.preventDefault();
        }}
      >
        <h2 id="shortcuts-title" className="shortcuts__title">
          Keyboard shortcuts
        </h2>
        <table className="shortcuts__table">
          <tbody>
            {shortcutList(mac).map((s) => (
              <tr key={s.what}>
                <td>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' or '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="shortcuts__note">
          Keys are left alone while you type in a field.{' '}
          {desktop ? 'The shortcuts with Ctrl or ⌘ come from the app menu.' : `Browsers may keep ${mac ? '⌘' : 'Ctrl'}+1…6 for their tabs: the digits alone work too.`}
        </p>
        <div className="shortcuts__actions">
          <button ref={close} type="button" className="btn btn--small" onClick={shut}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
