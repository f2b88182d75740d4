import { useRef, type KeyboardEvent } from 'react';
import { useDispatch, useStrata } from '../controller/StoreContext';
import { VIEWS, type ViewName } from '../store/ui/uiActions';

const LABELS: Record<ViewName, string> = { agent: 'Agent', charts: 'Charts', compare: 'Compare', memory: 'Memory', skills: 'Skills', events: 'Events', gateway: 'Gateway' };

/** The main area's view switcher: a WAI-ARIA tab list (arrow keys, Home, End move between tabs). */
export function ViewTabs() {
  const view = useStrata((s) => s.ui.view);
  const dispatch = useDispatch();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const go = (i: number) => {
    const next = VIEWS[(i + VIEWS.length) % VIEWS.length] as ViewName;
    dispatch({ type: 'view.select', view: next });
    refs.current[VIEWS.indexOf(next)]?.focus();
  };
  const onKey = (e: KeyboardEvent, i: number) => {
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: VIEWS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  return (
    <nav className="tabs" role="tablist" aria-label="Views">
      {VIEWS.map((v, i) => (
        <button
          key={v}
          ref={(el) => {
            refs.current[i] = el;
          }}
          role="tab"
          id={`tab-${v}`}
          aria-selected={view === v}
          aria-controls={`view-${v}`}
          tabIndex={view === v ? 0 : -1}
          className={`tabs__tab${view === v ? ' tabs__tab--on' : ''}`}
          onClick={() => dispatch({ type: 'view.select', view: v })}
          onKeyDown={(e) => onKey(e, i)}
        >
          {LABELS[v]}
        </button>
      ))}
    </nav>
  );
}
